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
        public var category: Topic?  // nil: the whole file
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
        let fileOf: (Question) -> String = {
            banks.questionFiles[$0.id] ?? ($0.stateCode.map { "states/\($0).json" } ?? "universal")
        }
        let fileOfID: (String) -> String = { id in banks.question(id).map(fileOf) ?? "?" }
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
                p.add(
                    file, q.id, "answers", "an option is \(max) characters, more than twice the shortest (\(shortest))")
            }
        }
        let table = cues.values.sorted {
            ($0.file, $0.category?.rawValue ?? "") < ($1.file, $1.category?.rawValue ?? "")
        }
        for c in table where c.keyLongest > allowedLongest(c.multipleChoice) {
            p.add(
                c.file, "-", c.category.map { "category \($0.rawValue)" } ?? "answers",
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
                    p.add(
                        fileOfID(y.id), y.id, "questionText",
                        "asks the same as \(x.id) (\(fileOfID(x.id))); merge them, make them test "
                            + "different things, or mark a reviewed pair with \"distinctFrom\"")
                }
            }
        }
        for list in universalPrints.values { compare(list, list, same: true) }
        for q in all {
            for other in q.distinctFrom ?? [] where banks.question(other) == nil {
                p.add(fileOf(q), q.id, "distinctFrom", "no question \(other)")
            }
        }
        for code in banks.stateQuestions.keys.sorted() {
            let prints = Dictionary(
                grouping: banks.stateQuestions[code]!.map(Fingerprint.init), by: \.question.category)
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
                    p.add(
                        fileOf(q), q.id, "acceptedAnswers",
                        "\"\(a)\" reads as \"\(n)\", but the key \"\(q.answers[0])\" is the number \(k)")
                } else if numberValue(key) == nil, numberValue(n) != nil {
                    p.add(
                        fileOf(q), q.id, "acceptedAnswers",
                        "\"\(a)\" reads as the bare number \"\(n)\"; the key \"\(q.answers[0])\" is not a number")
                }
            }
        }

        // Signs: a question that names a sign shows it; every picture is used by a question.
        // Names are matched as whole words before "sign" ("the yield sign"), from a set, so the
        // check is one pass over each question rather than one search per sign.
        var signByName: [String: String] = [:]
        for sign in banks.signs { signByName[Fingerprint.wordList(sign.name).joined(separator: " ")] = sign.id }
        let longestName = banks.signs.map { Fingerprint.wordList($0.name).count }.max() ?? 0
        var usedPictures = Set<String>()
        for q in all {
            if let image = q.imageAssetName {
                usedPictures.insert(image)
                continue
            }
            let lower = q.questionText.lowercased()
            guard lower.contains("sign") || lower.contains("marking") else { continue }
            let words = Fingerprint.wordList(lower)
            var problem: String?
            for (i, w) in words.enumerated() where w == "sign" || w == "signal" || w == "marking" || w == "markings" {
                if i > 0, ["this", "these"].contains(words[i - 1]) {
                    problem = "the question points at a picture (\"this \(w)\") but shows none"
                    break
                }
                guard w == "sign" else { continue }
                for start in stride(from: i - 1, through: max(0, i - longestName), by: -1) {
                    let name = words[start..<i].joined(separator: " ")
                    if let id = signByName[name] {
                        problem = "names the \(name) sign without showing it (imageAssetName \"\(id)\")"
                        break
                    }
                }
                if problem != nil { break }
            }
            if let problem { p.add(fileOf(q), q.id, "imageAssetName", problem) }
        }
        // Lessons show pictures too (a scene may be drawn for a lesson alone).
        let lessonPictures = Set(banks.allLessons.flatMap { $0.cards.compactMap(\.imageAssetName) })
        for s in banks.signs where !usedPictures.contains(s.id) && !lessonPictures.contains(s.id) {
            p.add("signs.json", s.id, "id", "no question or lesson shows this picture")
        }

        var perTopic: [Topic: Int] = [:]
        for q in banks.universal { perTopic[q.category, default: 0] += 1 }
        for t in Topic.allCases where t != .stateSpecific && perTopic[t, default: 0] < minUniversalPerTopic {
            p.add(
                "universal/", "-", "category \(t.rawValue)",
                "\(perTopic[t, default: 0]) universal questions; a topic needs at least \(minUniversalPerTopic)")
        }
        return Report(
            problems: p.list, lengthCues: table, universalPerTopic: perTopic,
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

    /// "12" → 12, "twelve" → 12, "twenty one" → 21, "five hundred" → 500, "0.08" → 0.08; anything else nil.
    static func numberValue(_ normalized: String) -> Double? {
        if let d = Double(normalized) { return d }
        var total = 0
        var current = 0
        var any = false
        for word in normalized.split(separator: " ") {
            switch word {
            case "and": continue
            case "hundred": current = max(current, 1) * 100
            case "thousand":
                total += max(current, 1) * 1000
                current = 0
            default:
                guard let v = numberWords[String(word)], v < 100 else { return nil }
                current += v
            }
            any = true
        }
        return any ? Double(total + current) : nil
    }

    /// A question's text as character bigrams, and its text and key as content words (first five
    /// letters, common words left out), for near-duplicate detection.
    struct Fingerprint {
        /// What the report needs of the question (not the whole question: these are copied a lot).
        struct Ref {
            let id: String
            let image: String?
            let distinctFrom: [String]?
            let category: Topic
        }
        let question: Ref
        /// Sorted, distinct: Dice is a merge of two sorted arrays, no hashing.
        let text: [UInt32]
        let key: [UInt32]
        let all: [UInt32]

        init(_ q: Question) {
            question = Ref(id: q.id, image: q.imageAssetName, distinctFrom: q.distinctFrom, category: q.category)
            text = Self.bigrams(q.questionText)
            // True/false keys ("True") say nothing about the fact; their text alone decides.
            key = q.kind == .trueFalse ? [] : Self.words(q.answers[q.correctAnswerIndex])
            all = Array(Set(Self.words(q.questionText) + key)).sorted()
        }

        static let common: Set<String> = [
            "a", "an", "the", "of", "to", "in", "on", "at", "for", "is", "are", "be", "you",
            "your", "it", "its", "this", "that", "what", "which", "when", "with", "and", "or", "if", "do", "does",
            "should",
            "must", "may", "can", "by", "as", "from", "than", "then", "there", "their", "they", "into", "out", "up",
            "down",
            "not", "no", "yes", "true", "false", "who", "how", "why", "where", "mean", "means", "sign",
        ]

        /// Lower-case words, in order ("Do Not Enter" → ["do", "not", "enter"]).
        static func wordList(_ s: String) -> [String] {
            s.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        }

        /// FNV-1a over bytes, for words as numbers.
        static func hash<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
            var h: UInt32 = 2_166_136_261
            for c in bytes { h = (h ^ UInt32(c)) &* 16_777_619 }
            return h
        }

        static let commonHashes: Set<UInt32> = Set(common.map { hash(Array($0.utf8)) })

        /// Letters and digits, lower-cased, over UTF-8 bytes (bytes of other scripts count as letters):
        /// Unicode property lookups per character were most of the lint's time.
        @inline(__always) static func wordByte(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x41...0x5A: return b | 0x20
            case 0x61...0x7A, 0x30...0x39, 0x80...0xFF: return b
            default: return nil
            }
        }

        /// Content words (their first five letters, common words left out), as sorted distinct hashes.
        static func words(_ s: String) -> [UInt32] {
            var out = Set<UInt32>()
            var full: [UInt8] = []
            full.reserveCapacity(16)
            func flush() {
                if !full.isEmpty, !commonHashes.contains(hash(full)) { out.insert(hash(full.prefix(5))) }
                full.removeAll(keepingCapacity: true)
            }
            for b in s.utf8 { if let c = wordByte(b) { full.append(c) } else { flush() } }
            flush()
            return out.sorted()
        }

        static func bigrams(_ s: String) -> [UInt32] {
            var set = Set<UInt32>()
            var previous: UInt32?
            for b in s.utf8 {
                guard let c = wordByte(b) else { continue }
                if let p = previous { set.insert(p << 8 | UInt32(c)) }
                previous = UInt32(c)
            }
            return set.sorted()
        }

        static func dice(_ a: [UInt32], _ b: [UInt32]) -> Double {
            guard !a.isEmpty, !b.isEmpty else { return 0 }
            var i = 0
            var j = 0
            var common = 0
            while i < a.count && j < b.count {
                if a[i] == b[j] {
                    common += 1
                    i += 1
                    j += 1
                } else if a[i] < b[j] {
                    i += 1
                } else {
                    j += 1
                }
            }
            return 2 * Double(common) / Double(a.count + b.count)
        }

        func sameFact(as o: Fingerprint) -> Bool {
            // Dice ≥ t needs the smaller set to be at least t/(2-t) of the larger: most pairs stop here.
            let (a, b) = (Double(text.count), Double(o.text.count))
            if min(a, b) >= max(a, b) * sameTextSimilarity / (2 - sameTextSimilarity),
                Self.dice(text, o.text) >= sameTextSimilarity
            {
                return true
            }
            let keys = Self.dice(key, o.key)
            guard keys >= relatedKeySimilarity else { return false }
            // The same picture asked about with the same answer is the same question.
            if let image = question.image, image == o.question.image { return true }
            return Self.dice(all, o.all) >= sameFactSimilarity
        }
    }
}
