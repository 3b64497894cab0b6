import Foundation
import Mustache
import TutorCore

/// Which template renders each `Message`, with which context.
extension Prompts {
    // MARK: - messages

    /// The HTML text of a message (Telegram parse_mode HTML).
    public func render(_ message: Message) -> String {
        switch message {
        case .welcome(let name): return welcome(WelcomeContext(firstName: name))
        case .welcomeBack(let name): return render("welcome_back", WelcomeContext(firstName: name))
        case .pickState: return fixed("pick_state")
        case .typeState: return fixed("type_state")
        case .confirmState(let s):
            struct C { var name: String }
            return render("confirm_state", C(name: s.name))
        case .confirmSwitch(let from, let to, let test):
            struct C {
                var from: String
                var to: String
                var test: String?
            }
            return render("confirm_switch", C(from: from, to: to, test: test.map(modeName)))
        case .stateCard(let v): return stateCard(StateCardContext(v))
        case .home(let v): return home(HomeContext(v))
        case .question(let v): return question(QuestionContext(v, prompts: self))
        case .answered(let v): return answered(AnsweredContext(v, prompts: self))
        case .lockedIn(let v): return render("locked_in", AnsweredContext(v, prompts: self, lockedIn: true))
        case .pickTest(let v): return render("pick_test", PickTestContext(v))
        case .misses(let v):
            return render(
                "misses",
                MissesContext(
                    items: v.items.map {
                        MissesContext.Item(
                            number: $0.number, question: $0.question, correctAnswer: $0.correctAnswer,
                            explanation: $0.explanation,
                            yourAnswer: $0.yourAnswer, signName: $0.signName)
                    }, page: v.page, pageCount: v.pageCount, paged: v.pageCount > 1))
        case .testUnavailable: return fixed("test_unavailable")
        case .nudge(let v):
            var c = NudgeContext(
                firstName: v.firstName, streak: v.streak, hasStreak: v.streak > 0,
                missed: v.missedCount, hasMissed: v.missedCount > 0,
                cards: v.cardsDue, hasCards: v.cardsDue > 0, cardsPlural: v.cardsDue == 1 ? "" : "s")
            c.minutes = Prompts.cardMinutes(v.cardsDue)
            c.minutesPlural = c.minutes == 1 ? "" : "s"
            c.dailyWaiting = v.dailyWaiting
            return render("nudge", c)
        case .confirmDelete: return fixed("confirm_delete")
        case .flashcard(let v):
            struct C {
                var number: Int
                var total: Int
                var topic: String
                var question: String
                var back: Bool
                var answer: String
                var explanation: String
            }
            return render(
                "flashcard",
                C(
                    number: v.number, total: v.total, topic: topicName(v.topic), question: v.question,
                    back: v.answer != nil, answer: v.answer ?? "", explanation: v.explanation ?? ""))
        case .flashcardsDone(let v):
            struct C {
                var reviewed: Int
                var hasReviewed: Bool
                var plural: String
                var dueTomorrow: Int
                var tomorrowPlural: String
                var dueThisWeek: Int
                var reward: RewardContext?
                var leftEarly: Bool
                var dueNow: Int
                var hasDueNow: Bool
                var nowPlural: String
            }
            return render(
                "flashcards_done",
                C(
                    reviewed: v.reviewed, hasReviewed: v.reviewed > 0, plural: v.reviewed == 1 ? "" : "s",
                    dueTomorrow: v.dueTomorrow,
                    tomorrowPlural: v.dueTomorrow == 1 ? "" : "s", dueThisWeek: v.dueThisWeek,
                    reward: v.reward.map(RewardContext.init), leftEarly: v.leftEarly,
                    dueNow: v.dueNow, hasDueNow: v.dueNow > 0, nowPlural: v.dueNow == 1 ? "" : "s"))
        case .pickSignGroup: return fixed("pick_sign_group")
        case .signCard(let v):
            struct C {
                var name: String
                var mutcd: String?
                var number: Int
                var total: Int
                var meaning: String
                var rule: String
            }
            return render(
                "sign_card",
                C(
                    name: v.sign.name, mutcd: v.sign.mutcd, number: v.number, total: v.total, meaning: v.sign.meaning,
                    rule: v.sign.rule))
        case .badgeEarned(let b):
            struct C {
                var name: String
                var why: String
            }
            let (name, why) = badge(b)
            return render("badge", C(name: name, why: why))
        case .levelUp(let level):
            struct C { var level: Int }
            return render("level_up", C(level: level))
        case .dataDeleted: return fixed("data_deleted")
        case .results(let v): return results(ResultsContext(v, prompts: self))
        case .challengeIntro(let v):
            struct C {
                var opponent: String?
                var hasOpponent: Bool
                var questions: Int
            }
            return render(
                "challenge_intro", C(opponent: v.opponent, hasOpponent: v.opponent != nil, questions: v.questions))
        case .challengeReady(let v):
            struct C {
                var score: Int
                var total: Int
                var link: String
                var own: Bool
                var reward: RewardContext?
                var sentTo: String?
            }
            return render(
                "challenge_ready",
                C(
                    score: v.score, total: v.total, link: v.link, own: v.own, reward: v.reward.map(RewardContext.init),
                    sentTo: v.sentTo))
        case .challengedBack(let friend, let questions, let back):
            struct C {
                var friend: String
                var questions: Int
                var back: Bool
            }
            return render("challenged_back", C(friend: friend, questions: questions, back: back))
        case .challengeResult(let v):
            struct C {
                var opponent: String
                var theirs: Int
                var yours: Int
                var total: Int
                var won: Bool
                var lost: Bool
                var tied: Bool
                var differed: [DifferenceContext]
                var hasDiffered: Bool
                var more: Bool
                var shown: Int
                var reward: RewardContext?
                var newcomer: Bool
                var alreadyFriends: Bool
            }
            return render(
                "challenge_result",
                C(
                    opponent: v.opponent, theirs: v.theirScore, yours: v.yourScore, total: v.total,
                    won: v.yourScore > v.theirScore, lost: v.yourScore < v.theirScore,
                    tied: v.yourScore == v.theirScore,
                    differed: v.differed.map(DifferenceContext.init),
                    hasDiffered: !v.differed.isEmpty, more: v.differedCount > v.differed.count, shown: v.differed.count,
                    reward: v.reward.map(RewardContext.init), newcomer: v.newcomer, alreadyFriends: v.alreadyFriends))
        case .challengePlayed(let v):
            struct C {
                var friend: String
                var theirs: Int
                var yours: Int
                var total: Int
                var won: Bool
                var lost: Bool
                var tied: Bool
                var differed: [DifferenceContext]
                var hasDiffered: Bool
                var more: Bool
                var shown: Int
            }
            return render(
                "challenge_played",
                C(
                    friend: v.friend, theirs: v.friendScore, yours: v.yourScore, total: v.total,
                    won: v.yourScore > v.friendScore, lost: v.yourScore < v.friendScore,
                    tied: v.yourScore == v.friendScore,
                    differed: v.differed.map(DifferenceContext.init), hasDiffered: !v.differed.isEmpty,
                    more: v.differedCount > v.differed.count, shown: v.differed.count))
        case .friends(let v):
            struct Entry {
                var place: Int
                var name: String
                var you: Bool
                var xp: Int
                var streak: Int
                var hasStreak: Bool
            }
            struct C {
                var removed: String?
                var hasFriends: Bool
                var standings: [Entry]
                var standing: LeagueStandingContext
                var friendList: String
                var lastWeek: LastWeekContext?
                var localStart: String?
                var hidden: Bool
            }
            // Places are shared on equal XP, as the line below the table says them.
            let entries = v.standings.map { e in
                Entry(
                    place: 1 + v.standings.filter { $0.xp > e.xp }.count, name: e.name, you: e.isYou,
                    xp: e.xp, streak: e.streak, hasStreak: e.streak > 0)
            }
            return render(
                "friends",
                C(
                    removed: v.removed, hasFriends: v.standing != .noFriends, standings: entries,
                    standing: LeagueStandingContext(v.standing), friendList: LastWeekContext.list(v.friendNames),
                    lastWeek: v.lastWeek.map(LastWeekContext.init),
                    localStart: v.weekStartsLocal.map(LocalWeekTimeText.text),
                    hidden: v.hidden))
        case .confirmUnfriend(let v):
            struct C { var name: String }
            return render("confirm_unfriend", C(name: v.name))
        case .dailyResult(let v):
            struct C {
                var score: Int
                var total: Int
                var state: String
                var beat: Int?
                var hasBeat: Bool
                var streak: Int
                var multiDay: Bool
                var perfect: Bool
                var reward: RewardContext?
                var answered: Int?
                var partly: Bool
                var comparesFrom: Int
                var hasFriends: Bool
                var friendLine: String
            }
            let friendLine = v.friends.map { "\($0.name) \($0.score)/\(v.total)" }.joined(separator: " · ")
            return render(
                "daily_result",
                C(
                    score: v.score, total: v.total, state: v.stateName, beat: v.beatPercent,
                    hasBeat: v.beatPercent != nil,
                    streak: v.streak, multiDay: v.streak > 1, perfect: v.score == v.total,
                    reward: v.reward.map(RewardContext.init),
                    answered: v.answered, partly: v.answered != nil, comparesFrom: DailyChallenge.percentileFrom,
                    hasFriends: !v.friends.isEmpty, friendLine: friendLine))
        case .dailyIntro(let state):
            struct C { var state: String }
            return render("daily_intro", C(state: state))
        case .dailyClosed(let answered, let total):
            struct C {
                var answered: Int
                var total: Int
            }
            return render("daily_closed", C(answered: answered, total: total))
        case .reviewEmpty: return fixed("review_empty")
        case .pickTopic: return fixed("pick_topic")
        case .progress(let v): return progress(ProgressContext(v, prompts: self))
        case .settings(let v): return render("settings", SettingsContext(v, zoneName: zoneName))
        case .help: return fixed("help")
        case .about: return fixed("about")
        case .notice(let n): return fixedNotices[n] ?? notice(NoticeContext(n))
        case .lessonCard(let v):
            struct C {
                var topic: String
                var number: Int
                var count: Int
                var title: String
                var text: String
                var card: Int
                var cards: Int
            }
            return render(
                "lesson_card",
                C(
                    topic: v.stateName.map { text(strings.buttons["stateRules"] ?? "{{state}} rules", ["state": $0]) }
                        ?? topicName(v.topic),
                    number: v.lessonNumber, count: v.lessonCount, title: v.title, text: v.text,
                    card: v.cardNumber, cards: v.cardCount))
        case .askAnswer(let v): return render("ask_answer", AskAnswerContext(v, prompts: self))
        case .askDeclined(let v):
            struct C {
                var topics: String
                var hasTopics: Bool
            }
            return render(
                "ask_declined",
                C(
                    topics: v.topics.map(topicName).joined(separator: " or "),
                    hasTopics: !v.topics.isEmpty))
        case .lessonDone(let v):
            struct C {
                var title: String
                var correct: Int
                var total: Int
                var hasChecks: Bool
                var testedOut: Bool
                var finished: Bool
                var needed: Int
                var nextTitle: String?
                var nextInTopic: Bool
                var done: Int
                var lessons: Int
                var reward: RewardContext?
                var hasMisses: Bool
                var close: Bool
                var hasSecondTry: Bool
                var afterReading: Int
            }
            return render(
                "lesson_done",
                C(
                    title: v.title, correct: v.correct, total: v.total, hasChecks: v.total > 0, testedOut: v.testedOut,
                    finished: v.finished, needed: v.needed, nextTitle: v.nextTitle, nextInTopic: v.nextInTopic,
                    done: v.lessonsDone,
                    lessons: v.lessonsTotal, reward: v.reward.map(RewardContext.init), hasMisses: v.correct < v.total,
                    close: v.correct + 1 == v.needed,
                    hasSecondTry: v.rightAfterReading != nil, afterReading: v.rightAfterReading ?? 0))
        case .topicLessons(let v):
            struct C {
                var topic: String
                var done: Int
                var total: Int
            }
            return render(
                "topic_lessons",
                C(
                    topic: topicName(v.topic) + (v.stateName.map { " · \($0)" } ?? ""),
                    done: v.done, total: v.total))
        }
    }

    func welcome(_ c: WelcomeContext) -> String { render("welcome", c) }
    func stateCard(_ c: StateCardContext) -> String { render("state_card", c) }
    func home(_ c: HomeContext) -> String { render("home", c) }
    func question(_ c: QuestionContext) -> String { render("question", c) }
    func answered(_ c: AnsweredContext) -> String { render("answered", c) }
    func results(_ c: ResultsContext) -> String { render("results", c) }
    func progress(_ c: ProgressContext) -> String { render("progress", c) }
    func notice(_ c: NoticeContext) -> String { render("notice", c) }
}
