import Foundation

/// A typed question as search terms: each word that carries meaning, with the bank's words that
/// count for it (its stem, a synonym, the spelling a typo missed), the state it names, and
/// whether it is plainly about something else.
public struct AskQuery: Sendable {
    /// One group per meaningful word; any term of a group counts as that word.
    public var groups: [[String]] = []
    /// A state the question names ("left on red in missouri"): it is answered for that state.
    public var namedState: String?
    /// The state is named to compare with the learner's own ("is it the same here", "like in
    /// cali"): the learner's state answers (a teen who moved got California's rules three times).
    public var namedToCompare = false
    /// A word that puts the question outside the permit test ("homework", "the speed of light").
    public var offTopic = false
    /// Neighbouring meaningful words ("weaving lane", "fire hydrant", "right red"): a card holding
    /// them side by side (stop words aside, as the index holds it) says more than one holding both apart.
    public var pairs: [(String, String)] = []
    /// About the test itself (how many questions, the pass mark, timed, sections), the permit age
    /// or the handbook: the state's test card answers, from `states.json`, never a lesson's prose.
    public var aboutTheTest = false
    /// About the test, asking what its card doesn't say: taking it online, on paper or in another
    /// language, what to bring, what it costs, retakes (a play-tester got the same card five times).
    public var beyondTheTestCard = false
    /// Per group: how much more the banks use the word than everyday English does (log10 of the
    /// ratio of its share of documents to its share of English words, `EverydayEnglish`). "lane",
    /// "yield", "brake" are far above 2; "morning", "name", "cup" under it.
    public var roadLift: [Double?] = []

    public init(_ text: String, corpus: AskCorpus) {
        var words = AskText.words(text)
        if let (range, code) = Self.stateName(in: words, corpus: corpus) {
            namedState = code
            // "here" before the state ("the limit here, in cali its 65"), or asking whether it is
            // the same ("is it the same here"), is the learner's state; not "my dad does it here"
            // after "were moving to missouri".
            let before = words[..<range.lowerBound]
            let here = words.firstIndex(of: "here")
            namedToCompare =
                before.suffix(1) == ["like"] || before.suffix(2) == ["like", "in"]
                || here.map { $0 < range.lowerBound } == true
                || (here != nil && !Set(words).isDisjoint(with: ["same", "too", "also", "different"]))
            words.removeSubrange(range)
        } else if words.contains("nyc") {
            // New York City's rules are New York's; the word stays, as the city's own rules say "city".
            namedState = "NY"
        }
        aboutTheTest = Self.asksAboutTheTest(Set(words))
        beyondTheTestCard =
            (aboutTheTest || !Set(words).isDisjoint(with: ["test", "exam", "dmv", "written", "knowledge"]))
            && !Set(words).isDisjoint(with: Self.beyondTheTestCardWords)
        // Nerves about the test are no reason to decline a question about the test ("how many
        // questions are on it, im so nervous im going to fail"): feelings count only elsewhere.
        let aside = aboutTheTest ? AskText.feelingWords : []
        let offTopicWords = words.filter { AskText.offTopicWords.contains($0) && !aside.contains($0) }
        let onlyEveryday = offTopicWords.allSatisfy(AskText.everydayOffTopicWords.contains)
        offTopic =
            !offTopicWords.isEmpty && !onlyEveryday
            || (!aboutTheTest && Self.offTopicPhrase(words))
            || (aboutTheTest && Self.offTopicPhrase(words, feelings: false))
        var seen = Set<[String]>()
        var previous: String?
        for word in AskText.rewritingPhrases(words) where !AskText.stopWords.contains(word) {
            let own = AskText.stem(word)
            if let previous, previous != own, corpus.documentFrequency[previous] != nil,
                corpus.documentFrequency[own] != nil
            {
                pairs.append((previous, own))
            }
            previous = own
            var terms: [String] = []
            // An everyday English word the banks lack is not a typo of one of theirs ("grand" is not "grad").
            let realWord = EverydayEnglish.zipf(word) != nil || EverydayEnglish.zipf(own) != nil
            // A synonym is found by the word as typed, by its stem ("cyclists" as "cyclist"), or
            // misspelt ("breathalizer" as "breathalyzer").
            let synonyms =
                AskText.synonyms[word] ?? AskText.synonyms[own]
                ?? (realWord ? nil : AskText.misspeltSynonym(word).flatMap { AskText.synonyms[$0] }) ?? []
            // A plural's 4-letter stem may be corrected too ("beems" → "beem" → "beam"); not any
            // longer word's ("slime" → "slim" is no "slip").
            let shortest = !realWord && word == own + "s" ? 4 : 5
            for term in [own] + synonyms.map(AskText.stem) {
                let df = corpus.documentFrequency[term]
                // A typo a card's asks hold too ("how many hours of drivng") is still the word it
                // misspells: found in every card that spells it, not only in that one.
                let maybeTypo = term == own && !realWord && (df ?? 0) <= Self.typoDocuments
                let fixed =
                    df == nil && !(realWord && term == own) || maybeTypo
                    ? Self.correction(term, typed: term == own ? word : nil, shortest: shortest, corpus: corpus) : nil
                if df != nil || fixed == nil, !terms.contains(term) { terms.append(term) }
                if let fixed, !terms.contains(fixed) { terms.append(fixed) }
            }
            if seen.insert(terms.sorted()).inserted {
                groups.append(terms)
                roadLift.append(Self.roadLift(word, terms: terms, corpus: corpus))
            }
        }
        // An everyday word ("weather", "music", "mall") is chat unless a clear road word is asked with it.
        if !offTopicWords.isEmpty, onlyEveryday, !offTopic {
            offTopic = !zip(groups, roadLift).contains { group, lift in
                (lift ?? 0) >= Self.clearRoadLift && !group.contains { AskText.everydayOffTopicWords.contains($0) }
            }
        }
        // Numbers and nothing else ("whats 2+2", "15 times 12") are arithmetic, not the road: a card
        // holding "12 to 15 seconds" is no answer.
        // (A number's group may hold its word too: "2" and "two".)
        let kept = groups.filter { $0.allSatisfy { !Self.arithmeticWords.contains($0) } }
        if !groups.isEmpty, kept.allSatisfy({ group in group.contains { $0.allSatisfy(\.isNumber) } }) {
            offTopic = true
        }
    }

    /// How much the question as a whole reads like the banks rather than everyday English: the
    /// mean of its words' `roadLift` (each held to -1...4, so one "hydroplaning" can't carry
    /// "recommend me a good book, i like fantasy"). A word neither the banks nor everyday English
    /// use ("nyquil", "burrito") says nothing either way and is left out.
    public var meanRoadLift: Double {
        let known = roadLift.compactMap { $0 }
        return known.isEmpty ? 0 : known.reduce(0) { $0 + min(4, max(-1, $1)) } / Double(known.count)
    }

    /// The bank term `term` misspells, by its stem or as `typed` ("drivign" → "driving" → "driv"),
    /// the one more documents hold; nil if none is more common than `term` itself.
    static func correction(_ term: String, typed: String?, shortest: Int, corpus: AskCorpus) -> String? {
        let candidates = [
            corpus.correct(term, shortest: shortest, evenIfKnown: true), typed.flatMap { corpus.correct(word: $0) },
        ]
        let df = { (t: String) in corpus.documentFrequency[t] ?? 0 }
        guard let best = candidates.compactMap({ $0 }).max(by: { df($0) < df($1) }), best != term,
            df(best) > df(term)
        else { return nil }
        return best
    }

    /// A word the banks use this much more than everyday English (log10) is plainly about the road.
    static let clearRoadLift = 3.0

    static let beyondTheTestCardWords: Set<String> = [
        "online", "home", "computer", "paper", "tablet", "language", "languages", "spanish", "english", "bring",
        "documents", "document", "id", "birth", "certificate", "proof", "cost", "costs", "fee", "fees", "pay",
        "appointment", "schedule", "walk", "retake", "retakes", "retaking", "retest", "again", "fail", "failed",
        "failing", "multiple", "choice", "format", "hard", "difficult", "easy", "oral", "audio",
    ]

    /// A term in at most this many documents and not English may be a typo the banks hold.
    static let typoDocuments = 5

    /// A word missing from `EverydayEnglish` is rarer than this in English.
    static let unlistedZipf = 3.5

    /// How much more the banks use `word` than everyday English does (log10 of the ratio of
    /// shares). A word no card holds counts as held by half a card: an everyday word the banks
    /// never use ("recommend", "fantasy") leans toward chat. nil: a word rare in both.
    static func roadLift(_ word: String, terms: [String], corpus: AskCorpus) -> Double? {
        let df = terms.compactMap { corpus.documentFrequency[$0] }.max() ?? 0
        let zipf = EverydayEnglish.zipf(word)
        if df == 0 && zipf == nil { return nil }
        // Zipf is log10 of occurrences per billion words: 9 - zipf is English's share, negated.
        let share = log10(max(0.5, Double(df)) / Double(max(1, corpus.documents.count)))
        return share + 9 - (zipf ?? unlistedZipf)
    }

    /// "what about in california", "and oregon?", "how about texas": the state a follow-up asks the
    /// last question again for (nil: the text says more than a state, so it is a question of its own).
    public static func followUpState(_ text: String, corpus: AskCorpus) -> String? {
        var words = AskText.words(text)
        guard words.count <= 8, let (range, code) = stateName(in: words, corpus: corpus) else { return nil }
        words.removeSubrange(range)
        return words.allSatisfy(followUpWords.contains) ? code : nil
    }

    static let followUpWords: Set<String> = [
        "what", "whats", "about", "how", "and", "in", "for", "the", "state", "of", "there", "then", "ok", "so", "hmm",
        "wait", "oh", "question",
        "also", "if", "i", "lived", "live", "moved", "to", "wbu", "same", "is", "it", "that", "thing", "rule", "law",
        "wat", "bout", "abt", "or", "but", "like",
    ]

    static let arithmeticWords: Set<String> = ["time", "times", "plus", "minus", "divid", "divided", "equal", "equals"]

    /// "speed of light", "stop sign" isn't, but "signs he likes you" is a question about a crush.
    static func offTopicPhrase(_ words: [String], feelings: Bool = true) -> Bool {
        let text = " " + words.joined(separator: " ") + " "
        // A bare "help" asks for the bot's help screen (the dialogue opens it), not a card holding "help".
        if [" help ", " help me ", " menu "].contains(text) { return true }
        if feelings,
            [" gonna fail", " going to fail", " tired of studying"].contains(where: { text.contains($0 + " ") })
        {
            return true
        }
        return [
            " speed of light", " speed of sound", " light year", " sign language", " zodiac sign", " star sign",
            " right of way in a relationship", " parking lot at the mall", " red flag", " red flags", " green flag",
            " green flags", " are you real", " r u real", " are u real", " you a real", " real person", " who made you",
            " who created you",
            " who built you", " meaning of life", " parents are fighting",
            " parents fighting", " my parents fight",
            // Chat with the bot itself: greetings, its name, its maker.
            " good morning", " good night", " good evening", " gm", " gn", " ur name", " your name", " who made u",
            " who created u", " how old r u", " how old are u", " how old are you", " u there", " you there",
            " what can u do", " what can you do",
        ]
        .contains { text.contains($0 + " ") }
    }

    static func asksAboutTheTest(_ words: Set<String>) -> Bool {
        func any(_ list: Set<String>) -> Bool { !words.isDisjoint(with: list) }
        // Another test (a breath test, the eye test) or someone else's age is not the permit test's format.
        if any([
            "chemical", "breath", "breathalyzer", "blood", "vision", "eye", "eyes", "refuse", "refusing", "implied",
            "passenger", "passengers", "supervising", "supervisor", "supervise", "adult", "parent", "driver", "hours",
            "year", "years", "cousin", "mom", "dad", "brother", "sister",
        ]) {
            return false
        }
        let test = any(["test", "exam", "dmv", "written", "knowledge"])
        let format = any([
            "questions", "question", "pass", "passing", "score", "timed", "minutes", "long", "sections",
            "section", "parts", "separate", "seperate", "percent", "finish", "time", "correct", "right", "wrong",
            "miss", "limit", "many", "fail", "failed", "failing", "retake", "again",
        ])
        let age = any(["old", "age"]) && any(["permit", "learners", "learner", "license", "licence"])
        // "manual" is the handbook, not a manual car or "visual manual cognitive" distraction.
        let manualMeansHandbook =
            words.contains("manual") && !any(["car", "gear", "transmission", "visual", "cognitive", "stick"])
        let handbook =
            words.contains("handbook") || manualMeansHandbook || (words.contains("study") && any(["book", "guide"]))
        // "what score do i need to pass": the pass mark, though "test" isn't said.
        let passMark = any(["score", "percent"]) && any(["pass", "passing"])
        return (test && format) || age || handbook || passMark
    }

    /// The longest state name among the words ("west virginia" before "virginia"), and where.
    static func stateName(in words: [String], corpus: AskCorpus) -> (Range<Int>, String)? {
        for (name, code) in corpus.stateNames where words.count >= name.count {
            for start in 0...(words.count - name.count) where words[start..<(start + name.count)].elementsEqual(name) {
                // "washington dc" is the District, not the state.
                if code == "WA", start + 1 < words.count, words[start + 1] == "dc" {
                    return (start..<(start + 2), "DC")
                }
                return (start..<(start + name.count), code)
            }
        }
        // A state's two letters typed in lowercase ("in nc"), unless they are also an everyday word.
        for (i, word) in words.enumerated() where word.count == 2 && !everydayTwoLetters.contains(word) {
            if let code = corpus.stateCodes.first(where: { $0.lowercased() == word }) { return (i..<(i + 1), code) }
        }
        if let i = words.firstIndex(of: "cali") { return (i..<(i + 1), "CA") }
        return nil
    }

    /// How many of `pairs` the document holds side by side (in its title, body or question wording).
    public func pairsHeld(by document: AskDocument) -> Int {
        guard !pairs.isEmpty else { return 0 }
        var held = Set<Int>()
        for field in [document.titleTerms, document.bodyTerms, document.askTerms] where field.count > 1 {
            for i in 0..<(field.count - 1) {
                for (n, pair) in pairs.enumerated() where pair.0 == field[i] && pair.1 == field[i + 1] {
                    held.insert(n)
                }
            }
        }
        return held.count
    }

    /// Two-letter state codes that are words too ("in", "me", "ok", "or", "hi", "oh", "pa", …).
    static let everydayTwoLetters: Set<String> = [
        "in", "me", "ok", "or", "hi", "oh", "pa", "al", "de", "la", "ma", "co", "id",
        "mt", "ms", "ga", "ar", "ne", "va", "wa", "ct", "md", "mo", "ia", "ri", "ut",
    ]

    /// Every term the index knows, quoted and OR'ed, for FTS5's MATCH (nil: nothing to look for).
    /// Terms in more than an eighth of the documents ("car", "lane", "drive") are left to the
    /// judge's coverage check unless nothing rarer is asked: they rank little, and scoring the
    /// thousand documents holding them was most of a look-up's time.
    public func matchExpression(in corpus: AskCorpus) -> String? {
        let known = Set(groups.joined()).filter { corpus.documentFrequency[$0] != nil }.sorted()
        let common = corpus.documents.count / 8
        let rare = known.filter { corpus.documentFrequency[$0]! <= common }
        let terms = rare.isEmpty ? known : rare
        guard !terms.isEmpty else { return nil }
        return terms.map { "\"\($0)\"" }.joined(separator: " OR ")
    }
}
