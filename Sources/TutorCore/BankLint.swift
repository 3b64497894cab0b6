import Foundation

/// Quality rules a bank must meet to be a fair *test*, beyond being well-formed (that is
/// `BankLoader`'s job): no answer given away by its length, no fact asked twice in other words,
/// typed answers that cannot be matched by something that means another thing, and no sign named
/// without its picture. `permitready banks lint` prints the report; `make test` fails on a problem.
public enum BankLint {
    /// A learner who always picks the longest option must not beat chance by much: the key may be
    /// the strictly longest option in at most this share of a file's (and a category's)
    /// multiple-choice questions. With four options chance is 25%.
    public static let maxLongestKeyShare = 0.35
    /// No option may be more than this many times as long as the shortest of its question.
    public static let maxLengthRatio = 2.0
    /// Question texts at least this similar (character-bigram Dice) are the same question.
    public static let sameTextSimilarity = 0.85
    /// Question and key together this alike (content-word Dice), with keys at least
    /// `relatedKeySimilarity` alike, ask for the same fact in other words.
    public static let sameFactSimilarity = 0.66
    public static let relatedKeySimilarity = 0.5
    /// Each handbook topic needs enough universal questions to draw a fair share of a test from.
    public static let minUniversalPerTopic = 8

    /// One cell of the longest-option table.
    public struct LengthCue: Equatable, Sendable {
        public var file: String
        public var category: Topic?     // nil: the whole file
        public var keyLongest: Int
        public var multipleChoice: Int
        public var share: Double { multipleChoice == 0 ? 0 : Double(keyLongest) / Double(multipleChoice) }
    }

    public struct Report: Sendable {
        public var problems: [BankProblem]
        public var lengthCues: [LengthCue]
        public var universalPerTopic: [Topic: Int]
        public var universalCount: Int
        public var nearDuplicatePairs: Int
    }

    public static func lint(_ banks: Banks) -> Report {
        var p = Problems()
        let fileOf: (Question) -> String = { banks.questionFiles[$0.id] ?? ($0.stateCode.map { "states/\($0).json" } ?? "universal") }
        var all = banks.universal
        for code in banks.stateQuestions.keys.sorted() { all += banks.stateQuestions[code]! }

        // Length cues, per file and per file × category.
        var cues: [String: LengthCue] = [:]
        for q in all where q.kind == .multipleChoice {
            let lengths = q.answers.map(\.count)
            let keyLen = lengths[q.correctAnswerIndex]
            let longest = lengths.enumerated().allSatisfy { $0.offset == q.correctAnswerIndex || $0.element < keyLen }
            let file = fileOf(q)
            for cat in [nil, Optional(q.category)] {
                let k = file + "|" + (cat?.rawValue ?? "")
                var c = cues[k] ?? LengthCue(file: file, category: cat, keyLongest: 0, multipleChoice: 0)
                c.multipleChoice += 1
                if longest { c.keyLongest += 1 }
                cues[k] = c
            }
            if let shortest = lengths.min(), let max = lengths.max(), Double(max) > maxLengthRatio * Double(shortest) {
                p.add(file, q.id, "answers", "an option is \(max) characters, more than twice the shortest (\(shortest))")
            }
        }
        let table = cues.values.sorted { ($0.file, $0.category?.rawValue ?? "") < ($1.file, $1.category?.rawValue ?? "") }
        for c in table where c.keyLongest > allowedLongest(c.multipleChoice) {
            p.add(c.file, "-", c.category.map { "category \($0.rawValue)" } ?? "answers",
                  "the key is the longest option in \(c.keyLongest) of \(c.multipleChoice) multiple-choice questions "
                  + "(\(Int((c.share * 100).rounded()))%; at most \(Int(maxLongestKeyShare * 100))%)")
        }

        // Near-duplicates: within what one learner can meet (universal, and each state with universal), same topic.
        var pairs = 0
        let universalPrints = Dictionary(grouping: banks.universal.map(Fingerprint.init), by: \.question.category)
        func compare(_ a: [Fingerprint], _ b: [Fingerprint], same: Bool) {
            for i in a.indices {
                for j in (same ? i + 1 : 0)..<b.count where a[i].sameFact(as: b[j]) {
                    let (x, y) = (a[i].question, b[j].question)
                    if (x.distinctFrom ?? []).contains(y.id) || (y.distinctFrom ?? []).contains(x.id) { continue }
                    pairs += 1
                    p.add(fileOf(y), y.id, "questionText", "asks the same as \(x.id) (\(fileOf(x))); merge them, make them test "
                          + "different things, or mark a reviewed pair with \"distinctFrom\"")
                }
            }
        }
        for list in universalPrints.values { compare(list, list, same: true) }
        for q in all { for other in q.distinctFrom ?? [] where banks.question(other) == nil {
            p.add(fileOf(q), q.id, "distinctFrom", "no question \(other)")
        } }
        for code in banks.stateQuestions.keys.sorted() {
            let prints = Dictionary(grouping: banks.stateQuestions[code]!.map(Fingerprint.init), by: \.question.category)
            for (topic, list) in prints {
                compare(list, list, same: true)
                compare(universalPrints[topic] ?? [], list, same: false)
            }
        }

        // Typed answers: every accepted spelling must still mean the key after matching's normalisation.
        for q in all where q.kind == .fillIn {
            let key = AnswerMatcher.normalize(q.answers[0])
            for a in q.acceptedAnswers ?? [] {
                let n = AnswerMatcher.normalize(a)
                if n.isEmpty {
                    p.add(fileOf(q), q.id, "acceptedAnswers", "\"\(a)\" matches nothing once normalised")
                } else if let k = numberValue(key), numberValue(n) != k {
                    p.add(fileOf(q), q.id, "acceptedAnswers", "\"\(a)\" reads as \"\(n)\", but the key \"\(q.answers[0])\" is the number \(k)")
                } else if numberValue(key) == nil, numberValue(n) != nil {
                    p.add(fileOf(q), q.id, "acceptedAnswers", "\"\(a)\" reads as the bare number \"\(n)\"; the key \"\(q.answers[0])\" is not a number")
                }
            }
        }

        // Signs: a question that names a sign shows it; every picture is used by a question.
        let signNames = banks.signs.map { ($0.id, $0.name.lowercased()) }
        var usedPictures = Set<String>()
        for q in all {
            if let image = q.imageAssetName { usedPictures.insert(image); continue }
            let text = q.questionText.lowercased()
            if text.contains("this sign") || text.contains("this signal") || text.contains("these markings") || text.contains("this marking") {
                p.add(fileOf(q), q.id, "imageAssetName", "the question points at a picture (\"this …\") but shows none")
            } else if let named = signNames.first(where: { text.contains($0.1 + " sign") }) {
                p.add(fileOf(q), q.id, "imageAssetName", "names the \(named.1) sign without showing it (imageAssetName \"\(named.0)\")")
            }
        }
        for s in banks.signs where !usedPictures.contains(s.id) {
            p.add("signs.json", s.id, "id", "no question shows this picture")
        }

        var perTopic: [Topic: Int] = [:]
        for q in banks.universal { perTopic[q.category, default: 0] += 1 }
        for t in Topic.allCases where t != .stateSpecific && perTopic[t, default: 0] < minUniversalPerTopic {
            p.add("universal/", "-", "category \(t.rawValue)", "\(perTopic[t, default: 0]) universal questions; a topic needs at least \(minUniversalPerTopic)")
        }
        return Report(problems: p.list, lengthCues: table, universalPerTopic: perTopic,
                      universalCount: banks.universal.count, nearDuplicatePairs: pairs)
    }

    /// Small groups get one question of slack: 1 of 2 is not a pattern a learner can use.
    static func allowedLongest(_ multipleChoice: Int) -> Int {
        max(1, Int((Double(multipleChoice) * maxLongestKeyShare).rounded(.down)))
    }

    static let numberWords: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
        "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
        "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    ]

    /// "12" → 12, "twelve" → 12, "twenty one" → 21, "0.08" → 0.08; anything else nil.
    static func numberValue(_ normalized: String) -> Double? {
        if let d = Double(normalized) { return d }
        let parts = normalized.split(separator: " ").map(String.init)
        guard !parts.isEmpty, parts.count <= 2, let values = Optional(parts.compactMap { numberWords[$0] }), values.count == parts.count else { return nil }
        if values.count == 2 && !(values[0] >= 20 && values[0] % 10 == 0 && values[1] < 10) { return nil }
        return Double(values.reduce(0, +))
    }

    /// A question's text as character bigrams, and its text and key as content words (first five
    /// letters, common words left out), for near-duplicate detection.
    struct Fingerprint {
        let question: Question
        let text: Set<UInt32>
        let key: Set<String>
        let all: Set<String>

        init(_ q: Question) {
            question = q
            text = Self.bigrams(q.questionText)
            // True/false keys ("True") say nothing about the fact; their text alone decides.
            key = q.kind == .trueFalse ? [] : Self.words(q.answers[q.correctAnswerIndex])
            all = Self.words(q.questionText).union(key)
        }

        static let common: Set<String> = ["a", "an", "the", "of", "to", "in", "on", "at", "for", "is", "are", "be", "you",
            "your", "it", "its", "this", "that", "what", "which", "when", "with", "and", "or", "if", "do", "does", "should",
            "must", "may", "can", "by", "as", "from", "than", "then", "there", "their", "they", "into", "out", "up", "down",
            "not", "no", "yes", "true", "false", "who", "how", "why", "where", "mean", "means", "sign"]

        static func words(_ s: String) -> Set<String> {
            var out = Set<String>()
            for w in s.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }) where !common.contains(String(w)) {
                out.insert(String(w.prefix(5)))
            }
            return out
        }

        static func bigrams(_ s: String) -> Set<UInt32> {
            let scalars = s.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(\.value)
            var set = Set<UInt32>()
            if scalars.count > 1 { for i in 1..<scalars.count { set.insert(scalars[i - 1] &* 65_599 &+ scalars[i]) } }
            return set
        }

        static func dice<T>(_ a: Set<T>, _ b: Set<T>) -> Double {
            guard !a.isEmpty, !b.isEmpty else { return 0 }
            let (small, large) = a.count < b.count ? (a, b) : (b, a)
            var common = 0
            for e in small where large.contains(e) { common += 1 }
            return 2 * Double(common) / Double(a.count + b.count)
        }

        func sameFact(as o: Fingerprint) -> Bool {
            if Self.dice(text, o.text) >= sameTextSimilarity { return true }
            let keys = Self.dice(key, o.key)
            // The same picture asked about with the same answer is the same question.
            if let image = question.imageAssetName, image == o.question.imageAssetName, keys >= relatedKeySimilarity { return true }
            return keys >= relatedKeySimilarity && Self.dice(all, o.all) >= sameFactSimilarity
        }
    }
}
