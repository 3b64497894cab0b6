import Foundation

/// Chooses the questions of a quiz, leaning toward what the learner has not mastered yet.
public enum QuestionPicker {
    public static let quizLength = 10
    /// A first-time learner gets easy questions until this many answers have been right (TigerTest's training).
    public static let gettingStartedCorrect = 10

    /// How much more likely a question is to be drawn than one already answered right.
    /// Misses come back most; unseen questions next; a question answered right keeps a
    /// small weight that shrinks with each right answer, so mastered material still recurs.
    static func weight(_ stats: QuestionStats?) -> Double {
        guard let s = stats else { return 3 }
        if s.missed { return 5 }
        return 1 / Double(1 + s.correct)
    }

    public static func isGettingStarted(_ progress: [String: QuestionStats]) -> Bool {
        progress.values.reduce(0) { $0 + $1.correct } < gettingStartedCorrect
    }

    /// Up to `count` distinct questions from `pool`, weighted by mastery (Efraimidis–Spirakis
    /// sampling without replacement: key = u^(1/w), take the largest keys).
    public static func pick(
        _ count: Int, from pool: [Question], progress: [String: QuestionStats],
        random: inout SeededRandom
    ) -> [Question] {
        var candidates = pool
        if isGettingStarted(progress) {
            let easy = pool.filter { $0.difficulty == .easy }
            if easy.count >= count { candidates = easy }
        }
        let keyed = candidates.map { q -> (Double, Question) in
            (pow(random.unit(), 1 / weight(progress[q.id])), q)
        }.sorted { $0.0 > $1.0 }
        // About one in five from the state's own file where the pool has them (its real test is
        // written from its handbook; in proportion to the pool it would be one in fifteen).
        // More where too few others are left (a quiz on the state's own rules is all its own).
        let own = keyed.filter { $0.1.stateCode != nil }
        let others = keyed.filter { $0.1.stateCode == nil }
        let ownTaken = min(own.count, max(Int((Double(count) * stateShare).rounded()), count - others.count))
        return (own.prefix(ownTaken) + others.prefix(count - ownTaken)).sorted { $0.0 > $1.0 }.map(\.1)
    }

    /// The share of a quiz drawn from the learner's state's own questions.
    public static let stateShare = 0.2

    /// The learner's misses that still exist in the bank (a removed question drops out quietly).
    public static func reviewQuestions(_ state: ChatState, banks: Banks, limit: Int = quizLength) -> [Question] {
        let pool = banks.poolIDs(for: state.learner.stateCode)
        // Answers of a practice test still in progress (or put aside) are revealed at its end, not here.
        let hidden = Set(
            [state.session.quiz, state.session.parkedQuiz].compactMap { $0 }.filter(\.hidesAnswers).flatMap(
                \.questionIDs))
        return state.missedIDs.filter { pool.contains($0) && !hidden.contains($0) }.prefix(limit).compactMap(
            banks.question)
    }

    /// A fresh display order for a question's answers. True/false keeps True first, as people expect.
    public static func shuffledOrder(_ q: Question, random: inout SeededRandom) -> [Int] {
        if q.kind != .multipleChoice { return Array(q.answers.indices) }
        return Array(q.answers.indices).shuffled(using: &random)
    }
}

/// Share of each topic's questions that the learner last answered right.
public enum Mastery {
    public static func byTopic(_ progress: [String: QuestionStats], pool: [Question]) -> [TopicMastery] {
        // Counted in an array by the topic's place in `Topic.allCases` (a dictionary keyed by
        // topic hashed twice per question of the pool), which is also the order `sorted()` gave.
        let topics = Topic.allCases
        var mastered = [Int](repeating: 0, count: topics.count)
        var total = mastered
        for q in pool {
            guard let t = topics.firstIndex(of: q.category) else { continue }
            total[t] += 1
            if progress[q.id]?.lastCorrect == true { mastered[t] += 1 }
        }
        return topics.indices.filter { total[$0] > 0 }.map {
            TopicMastery(topic: topics[$0], mastered: mastered[$0], total: total[$0])
        }
    }
}

/// Matches a typed answer to a fill-in question forgivingly: case, spacing and punctuation do
/// not matter, a unit after a number may be left out or added ("25" = "25 mph"), and a word of
/// five letters or more may have one small typo.
public enum AnswerMatcher {
    static let units: Set<String> = [
        "mph", "miles", "mile", "feet", "foot", "ft", "seconds", "second", "secs", "sec", "s",
        "sides", "side", "percent", "%", "hours", "hour", "days", "day", "years", "year",
        "months", "month", "minutes", "minute", "min", "inches", "inch", "in", "points", "point",
    ]

    /// How a typed answer matched: as written, with a word or two around it, or with a typo.
    public enum Match: Sendable { case exact, withWordsAround, typo }

    public static func matches(_ typed: String, _ q: Question) -> Bool { match(typed, q) != nil }

    public static func match(_ typed: String, _ q: Question) -> Match? {
        let t = normalize(typed)
        guard !t.isEmpty else { return nil }
        let accepted = (q.answers + (q.acceptedAnswers ?? [])).map(normalize)
        if accepted.contains(t) { return .exact }
        // The answer with a word or two around it ("THC lol", "it's crossing"), as long as
        // nothing else in it is a number (so "12 not 10" can't pass for 12).
        let words = t.split(separator: " ").map(String.init)
        for a in accepted where !a.isEmpty {
            let key = a.split(separator: " ").map(String.init)
            guard words.count > key.count, words.count - key.count <= 2 else { continue }
            for start in 0...(words.count - key.count) where Array(words[start..<start + key.count]) == key {
                let rest = words[..<start] + words[(start + key.count)...]
                if !rest.contains(where: { $0.first?.isNumber == true }) { return .withWordsAround }
            }
        }
        // A typo is forgiven only where the answer is a word: "eighty" must not pass for "8"/"eight".
        guard let canonical = accepted.first, canonical.count >= 5, canonical.allSatisfy({ $0.isLetter || $0 == " " })
        else { return nil }
        return StateMatcher.editDistance(canonical, t) <= 1 ? .typo : nil
    }

    /// "  25 MPH. " → "25"; "The Octagon" → "octagon".
    /// Built once: making these sets (a union, an inverse) was most of a typed answer's matching.
    private static let wordSeparators = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "%.")).inverted
    private static let dots = CharacterSet(charactersIn: ".")

    static func normalize(_ s: String) -> String {
        var words = s.lowercased()
            .replacingOccurrences(of: "%", with: " % ")
            .components(separatedBy: wordSeparators)
            .map { $0.trimmingCharacters(in: dots) }
            .filter { !$0.isEmpty }
        if words.first == "the" || words.first == "a" || words.first == "an" { words.removeFirst() }
        if words.count == 2, Double(words[0]) != nil, units.contains(words[1]) { words.removeLast() }
        return words.joined(separator: " ")
    }
}
