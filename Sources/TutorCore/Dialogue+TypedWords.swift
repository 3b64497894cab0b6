import Foundation

/// What a teen types for a screen's buttons: "next" or "ok" on a lesson card, "quiz" or "signs" on
/// home, the answer on a flashcard, "next" in the sign gallery. Play-testers typed these and got
/// "Hmm, I didn't catch that"; each screen now takes the words for its buttons, forgiving one typo
/// ("nxt", "quizz").
extension Reduction {
    /// Handles `text` as the current screen's button if it reads as one; false leaves it to the
    /// rest of `handleText` (a question for the tutor, or "didn't catch that").
    mutating func typedForScreen(_ text: String) -> Bool {
        let typed = Self.plainWords(text)
        guard !typed.isEmpty else { return false }
        // "whats my chance of passing", "how am i doing": the Progress screen, from anywhere but a question.
        // "how do you calculate my pass chance", "why should i trust that number": Help says how
        // it is worked out (a skeptical re-taker got "didn't catch that" and a quiz question).
        if state.session.screen != .quiz, Self.asksHowTheNumberWorks(typed) {
            go(.help)
            return true
        }
        if state.session.screen != .quiz, Self.progressPhrases.contains(where: { typed.contains($0) }) {
            go(.progress)
            return true
        }
        switch state.session.screen {
        case .lesson where state.session.lesson != nil:
            guard Self.matches(typed, Self.nextWords) || ["n", "skip"].contains(typed) else { return false }
            turnLessonCardTyped()
            return true
        case .cards where state.session.cards != nil:
            return typedOnFlashcard(typed)
        case .gallery:
            // "k thx" in the sign gallery got "didn't catch that" and the gallery's menu again.
            return typedInGallery(typed) || smallTalk(typed) || typedMenuWord(typed)
        case .home, .results, .progress, .help, .about, .friends:
            // An answer's letter with a quiz waiting behind Continue: back to its question.
            if state.session.quiz != nil, text.count <= 2, Reduction.typedOption(text) != nil {
                go(.resume)
                return true
            }
            // "next" or "again" under results: another round, as the results' own button says
            // (it opened the next lesson, unannounced).
            if state.session.screen == .results, Self.matches(typed, Self.anotherRoundWords) {
                go(.tryAnother)
                return true
            }
            if Self.soundsBored(typed) {
                offerAGame()
                return true
            }
            return smallTalk(typed) || typedMenuWord(typed)
        default:
            return false
        }
    }

    /// A menu's word ("quiz", "signs", "what can u do") opens that screen; a greeting or "u there?" Home.
    mutating func typedMenuWord(_ typed: String) -> Bool {
        // "continue" with a quiz waiting behind ▶️ Continue is that button (a play-tester's
        // "continue" two days later opened the first lesson instead of the open practice test).
        if state.session.quiz != nil,
            ["continue", "resume", "keep going", "continue test", "continue quiz"]
                .contains(typed)
        {
            go(.resume)
            return true
        }
        guard let item = Self.menuWord(typed) else { return false }
        if let item { go(item) } else { showHome() }
        return true
    }

    /// Small talk gets a short reply, not "didn't catch that" and the whole menu again: "thx",
    /// "lol ok", "ok cool ty bye" (every word small talk; a thank-you among them is answered as one).
    mutating func smallTalk(_ typed: String) -> Bool {
        let words = typed.split(separator: " ").map(String.init)  // `typed` is already one space apart
        guard !words.isEmpty,
            Self.thanksWords.contains(typed) || Self.okWords.contains(typed)
                || words.allSatisfy(Self.smallTalkWords.contains)
        else { return false }
        let thanked = Self.thanksWords.contains(typed) || words.contains(where: Self.thankYouWords.contains)
        send(.notice(thanked ? .youreWelcome : .acknowledged))
        return true
    }

    /// Text at a question with no options: "A" gets told what is wanted, not marked wrong ("1" may
    /// be the answer itself); "idk" is a skip, as on multiple choice; anything else is the answer.
    mutating func typedAtFillIn(_ text: String, _ quiz: QuizRun) {
        if Reduction.typedOption(text) != nil && text.count <= 2 && text.allSatisfy(\.isLetter) {
            return send(.notice(.typeTheAnswer))
        }
        // "next" and "skip" too: the bot itself says "type next" (a play-tester's was graded wrong).
        if Reduction.dontKnow.contains(text.lowercased()) || ["next", "skip", "pass"].contains(Self.plainWords(text)) {
            return answer(original: -1, target: .tag(quiz.questionTag))
        }
        // "wait, what does a flashing yellow light mean?" is a question, not an attempt (it was
        // graded wrong, cut at 60 characters): five words or more that read as a question.
        // "is it 20 feet?" stays an answer.
        if text.split(separator: " ").count >= 5, let asked = asksTheTutorMidQuiz(text) {
            return answerMidQuiz(text, asked, quiz)
        }
        answerTyped(text)
    }

    /// "this is boring lol", "bruh", "ugh": a short message, not a question or a button's word.
    static func soundsBored(_ typed: String) -> Bool {
        let words = typed.split(separator: " ").map(String.init)
        return words.count <= 6 && words.contains(where: boredWords.contains)
    }

    /// A bored teen gets the games, one line and four buttons (the whole home again read as a wall).
    mutating func offerAGame() {
        send(
            .notice(.soundsBored),
            buttons: [
                [Button(.timedChallenge, .menu(.timedChallenge)), Button(.livesChallenge, .menu(.livesChallenge))],
                [Button(.challengeFriend, .menu(.challenge))],
                [Button(.home, .menu(.home))],
            ])
    }

    /// "next" on a lesson card turns it, as the Next button does.
    mutating func turnLessonCardTyped() {
        guard let run = state.session.lesson, let lesson = banks.lesson(run.lessonID) else { return showHome() }
        if run.card + 1 < lesson.cards.count {
            state.session.lesson?.card = run.card + 1
            return showLessonCard()
        }
        startLessonCheck(lesson)
    }

    /// On a card's front, whatever is typed is the learner's go at it: the card turns over (the
    /// answer shows, with the rating buttons). On its back, "again"/"knew it" and the like rate it.
    mutating func typedOnFlashcard(_ typed: String) -> Bool {
        guard let run = state.session.cards else { return false }
        if !run.showingAnswer {
            revealCard(target: .tag(run.tag))
            return true
        }
        // Word by word on the back: "ya got it", "nah forgot".
        let words = Set(typed.split(separator: " ").map(String.init))
        if Self.matches(typed, Self.againWords) || !words.isDisjoint(with: Self.againWords) {
            rateCard(.again)
            return true
        }
        if Self.matches(typed, Self.knewWords) || Self.matches(typed, Self.nextWords)
            || !words.isDisjoint(with: Self.knewWords)
        {
            rateCard(.good)
            return true
        }
        // Anything else: the card stays turned over, its ratings below (it was shown face down again).
        send(.notice(.didNotCatchThat))
        showCardBack()
        return true
    }

    /// Words that leave whatever is going on, except "stop" on a flashcard's front: that is an
    /// answer there (the stop sign's card).
    func leaves(_ text: String) -> Bool {
        let word = text.lowercased()
        guard Self.leaveWords.contains(word) else { return false }
        return !(word == "stop" && state.session.screen == .cards && state.session.cards?.showingAnswer == false)
    }

    /// The option whose own words were typed: all of them ("diamond"), or a run of whole words found
    /// in one option only ("3 feet" for "At least 3 feet").
    static func optionTyped(_ text: String, _ q: Question) -> Int? {
        let typed = AnswerMatcher.normalize(text)
        if typed.count >= 3, let exact = q.answers.firstIndex(where: { AnswerMatcher.normalize($0) == typed }) {
            return exact
        }
        let words = plainWords(text)
        guard words.count >= 3 else { return nil }
        let within = q.answers.indices.filter { (" " + plainWords(q.answers[$0]) + " ").contains(" " + words + " ") }
        return within.count == 1 ? within[0] : nil
    }

    /// In the gallery a stray word keeps the sign on screen; "next" and "back" move.
    mutating func typedInGallery(_ typed: String) -> Bool {
        guard let at = state.session.gallerySign else { return false }
        let count = banks.signs.filter { $0.group == at.group }.count
        guard count > 0 else { return false }
        if Self.matches(typed, Self.nextWords) || typed == "n" {
            showSign(at.group, (at.index + 1) % count)
            return true
        }
        if Self.matches(typed, Self.backWords) || ["b", "p"].contains(typed) {
            showSign(at.group, (at.index - 1 + count) % count)
            return true
        }
        if Self.matches(typed, Self.quizWords) {
            startQuiz(.signGroup(at.group))
            return true
        }
        if Self.readsAsAQuestion(typed) { return false }
        send(.notice(.didNotCatchThat))
        showSign(at.group, at.index)
        return true
    }

    /// The menu item a word on home names (`.some(nil)`: home itself, for "hi" or "menu").
    static func menuWord(_ typed: String) -> MenuItem?? {
        if matches(typed, homeWords) { return .some(nil) }
        for (item, words) in menuWords where matches(typed, words) { return .some(item) }
        return nil
    }

    /// Words that leave whatever is going on, and a skip at a question.
    static let leaveWords: Set<String> = ["home", "menu", "stop", "quit", "exit", "done", "cancel", "main menu"]
    static let dontKnow: Set<String> = ["idk", "i dont know", "i don't know", "dunno", "no idea", "skip", "?", "pass"]
    static let nextWords: Set<String> = [
        "next", "ok", "okay", "k", "kk", "continue", "go", "go on", "got it", "cool", "yes",
        "yep", "yeah", "sure", "more", "next card", "next one", ">", "->",
    ]
    static let backWords: Set<String> = ["back", "previous", "prev", "go back", "last one", "<", "<-"]
    static let againWords: Set<String> = [
        "again", "no", "nope", "nah", "didnt", "didn't", "didnt know", "didn't know", "forgot",
        "wrong", "missed",
    ]
    static let knewWords: Set<String> = [
        "knew it", "i knew it", "knew", "got it", "got it right", "right", "easy", "good", "yes",
        "ya", "yep", "yeah", "yup", "correct",
    ]
    static func asksHowTheNumberWorks(_ typed: String) -> Bool {
        let how = ["calculate", "work out", "worked out", "figure out", "trust", "legit", "accurate", "how does"]
        let number = ["chance", "number", "percent", "%"]
        return how.contains { typed.contains($0) } && number.contains { typed.contains($0) }
    }

    static let progressPhrases = [
        "chance of passing", "chances of passing", "my chance", "my chances", "how am i doing", "pass chance",
        "passing chance",
        "gonna pass", "going to pass", "will i pass", "am i ready", "my progress", "my score",
        // "do u think ill pass?? im so nervous" got "I only know the permit test".
        "ill pass", "i'll pass", "i will pass", "can i pass", "could i pass",
    ]
    static let quizWords: Set<String> = ["quiz", "quiz me", "test me"]
    /// Words for Progress that can't be a quiz answer, taken mid-quiz too.
    static let progressWords: Set<String> = ["progress", "my progress", "stats", "my stats", "show my progress"]
    /// Under "New York — is that right?" ("ok" is Oklahoma's code, so not here).
    static let yesWords: Set<String> = [
        "yes", "y", "ya", "yeah", "yea", "yep", "yup", "correct", "right", "thats right", "that's right", "sure",
        "yes please", "yess",
    ]
    static let noWords: Set<String> = ["no", "n", "nope", "nah", "wrong", "no thats wrong", "not that one"]
    static let boredWords: Set<String> = [
        "boring", "bored", "boooring", "bruh", "meh", "ugh", "zzz", "zzzz", "yawn", "lame", "sucks",
    ]
    /// Under results: another round of the same kind.
    static let anotherRoundWords: Set<String> = [
        "next", "again", "another", "another one", "one more", "more", "play again", "go again", "retry",
        "next quiz", "next one", "next round", "another round",
    ]
    static let thanksWords: Set<String> = [
        "thx", "thanks", "thank you", "ty", "tysm", "thank u", "thanku", "thnx", "tyy", "thanks so much",
        "thank you so much", "appreciate it", "thanks bot", "ok thanks", "ok thx", "ok ty", "thanks lol",
    ]
    static let okWords: Set<String> = [
        "ok", "okay", "ok cool", "cool", "k", "kk", "lol", "lmao", "nice", "bet", "got it", "gotcha", "alright",
        "word", "ok lol", "cool cool", "ight", "aight", "oh ok", "oh okay", "makes sense", "haha",
    ]
    /// Words that make up small talk, in any order ("ok cool ty bye", "lol ok", "k thx").
    static let smallTalkWords: Set<String> = [
        "ok", "okay", "k", "kk", "cool", "lol", "lmao", "nice", "bet", "got", "it", "gotcha", "alright", "word",
        "ight", "aight", "oh", "makes", "sense", "haha", "thx", "thanks", "thank", "you", "u", "ty", "tysm", "thnx",
        "tyy", "thanku", "bye", "byee", "cya", "later", "so", "much", "great", "awesome", "perfect", "sweet", "yay",
        "np", "kinda", "i", "see", "appreciate", "bot", "ah", "ahh", "hmm", "mk", "okk", "okie", "<3",
    ]
    static let thankYouWords: Set<String> = [
        "thx", "thanks", "thank", "ty", "tysm", "thnx", "tyy", "thanku", "appreciate",
    ]
    static let homeWords: Set<String> = [
        "hi", "hey", "hello", "yo", "sup", "hii", "hiya", "start", "main", "back", "im back", "i'm back", "back again",
        "im here", "i'm here",
        // "u there?": the home screen is the bot saying it is.
        "u there", "you there", "r u there", "are u there", "are you there", "hello u there", "anyone there",
    ]
    static let menuWords: [(MenuItem, Set<String>)] = [
        (.quickQuiz, ["quiz", "quick quiz", "quiz me", "q", "questions"]),
        (.timedChallenge, ["think fast", "timed", "speed round"]),
        (.livesChallenge, ["3 lives", "three lives", "lives"]),
        (.practiceTest, ["test", "practice test", "exam", "practice", "mock test", "full test"]),
        (.learn, ["learn", "lesson", "lessons", "study", "teach me", "continue", "next", "next lesson"]),
        (.gallery, ["signs", "sign", "road signs", "sign gallery"]),
        (.flashcards, ["cards", "flashcards", "flash cards", "flashcard"]),
        (.review, ["review", "mistakes", "missed", "my mistakes", "review missed"]),
        (.progress, ["progress", "stats", "score", "scores", "my progress"]),
        (.daily, ["daily", "daily 5", "daily five"]),
        (.settings, ["settings", "reminders", "reminder"]),
        (.help, ["help", "help me", "what can you do", "what can u do", "what do you do", "what do u do"]),
        (.friends, ["friends", "friend"]),
        (.topics, ["topics", "topic"]),
    ]

    /// Lower case, letters, digits, spaces, apostrophes and arrows only ("Next!" → "next").
    static func plainWords(_ text: String) -> String {
        let kept = text.lowercased().unicodeScalars.map { s -> Character in
            s.properties.isAlphabetic || s.properties.numericType != nil || "'<>-".unicodeScalars.contains(s)
                ? Character(s) : " "
        }
        return String(kept).split(separator: " ").joined(separator: " ")
    }

    /// `typed` is one of `words`, or one typo from one of four letters or more.
    /// Asking about the question on screen (`explainCurrentQuestion`), matched as typed.
    static let explainWords: Set<String> = [
        "what does that mean", "what does this mean", "what does it mean", "wdym", "what do you mean",
        "what do u mean", "i dont get it", "i don't get it", "dont get it", "don't get it", "i dont understand",
        "i don't understand", "explain", "explain it", "explain that", "explain pls", "explain please",
        "can you explain", "can u explain", "why", "why tho", "but why", "why is that", "how come", "huh",
        "im confused", "i'm confused", "confused",
    ]

    /// "what does that mean", or a short "why" ("why is it not b", "why not c"): about the
    /// question on screen (a play-tester's "why is it not b" got the off-topic line).
    static func asksAboutThisQuestion(_ typed: String) -> Bool {
        let words = typed.split(separator: " ")
        return explainWords.contains(typed) || (words.first == "why" && words.count <= 6)
    }

    static func matches(_ typed: String, _ words: Set<String>) -> Bool {
        if words.contains(typed) { return true }
        guard typed.count >= 3 else { return false }
        let bytes = Array(typed.utf8)
        return words.contains { $0.count >= 4 && AskCorpus.withinOneEdit(bytes, Array($0.utf8)) }
    }
}
