import Foundation

/// Patterns a learner could game instead of knowing the answer, measured per question file and
/// overall (`permitready banks lint`): in questions whose options are all numbers, the key sitting
/// between the smallest and the largest; the share of true/false questions whose key is "True";
/// absolute words ("always", "never", "only", "any") in keys against wrong options; and the single
/// word most telling of a key. The same counting as the instructor review's script, so its figures
/// and the lint's agree.
public enum GuessingLint {
    /// The key strictly between the smallest and the largest option, at most this share of a file's
    /// all-number questions (a guesser who rules out both extremes otherwise does far better than 1 in 4).
    public static let maxMiddleKeyShare = 0.55
    /// "True" is the key in this band of a file's true/false questions.
    public static let trueShare = 0.40...0.60
    /// An absolute word in at least this many wrong options and in no key is a cue (never the answer).
    public static let neverKeyUses = 10
    /// An absolute word in at least `neverKeyUses` options is a key in this share of them: about as
    /// often as any option is (a quarter to a third), so it tells a test-wise learner nothing either
    /// way (wrong options stripped of "only" made "only" mark the key 52% of the time).
    public static let absoluteKeyShare = 0.12...0.45

    public struct FileFigures: Sendable {
        public var file: String
        public var middleKeys = 0, allNumber = 0
        public var trueKeys = 0, trueFalse = 0
    }

    public struct Report: Sendable {
        public var files: [FileFigures]
        public var overall: FileFigures
        /// Per absolute word: options that are keys and wrong options containing it.
        public var absolute: [(word: String, inKeys: Int, inWrong: Int)]
        public var keys = 0, wrongOptions = 0
        /// The word whose options are keys most out of proportion (at least 20 uses), with its key share.
        public var strongestCue: (word: String, keyShare: Double, uses: Int)?
        public var problems: [BankProblem]
    }

    public static func lint(_ banks: Banks) -> Report {
        var byFile: [String: FileFigures] = [:]
        var overall = FileFigures(file: "all")
        var keyWords: [String: Int] = [:]
        var allWords: [String: Int] = [:]
        var absKeys: [String: Int] = [:]
        var absWrong: [String: Int] = [:]
        var keys = 0
        var wrong = 0
        let questions = banks.universal + banks.stateQuestions.keys.sorted().flatMap { banks.stateQuestions[$0] ?? [] }
        for q in questions {
            let file = banks.questionFiles[q.id] ?? (q.stateCode.map { "states/\($0).json" } ?? "universal")
            var f = byFile[file] ?? FileFigures(file: file)
            switch q.kind {
            case .trueFalse:
                f.trueFalse += 1
                overall.trueFalse += 1
                if q.answers[q.correctAnswerIndex] == "True" {
                    f.trueKeys += 1
                    overall.trueKeys += 1
                }
            case .multipleChoice:
                if let values = numericValues(q.answers), values.count >= 3 {
                    f.allNumber += 1
                    overall.allNumber += 1
                    let key = values[q.correctAnswerIndex]
                    if key != values.min() && key != values.max() {
                        f.middleKeys += 1
                        overall.middleKeys += 1
                    }
                }
                for (i, option) in q.answers.enumerated() {
                    let isKey = i == q.correctAnswerIndex
                    if isKey { keys += 1 } else { wrong += 1 }
                    let words = Self.words(option)
                    for w in words where absoluteWords.contains(w) {
                        if isKey { absKeys[w, default: 0] += 1 } else { absWrong[w, default: 0] += 1 }
                    }
                    for w in words where w.count >= 4 && !commonWords.contains(w) {
                        allWords[w, default: 0] += 1
                        if isKey { keyWords[w, default: 0] += 1 }
                    }
                }
            case .fillIn:
                break
            }
            byFile[file] = f
        }
        var problems: [BankProblem] = []
        let files = byFile.values.sorted { $0.file < $1.file }
        for f in files + [overall] {
            if !middleShareHolds(f.middleKeys, of: f.allNumber) {
                problems.append(
                    BankProblem(
                        file: f.file, id: "-", field: "answers",
                        message:
                            """
                            the key is a middle value in \(f.middleKeys) of \(f.allNumber) all-number questions \
                            (at most \(Int(maxMiddleKeyShare * 100))%): move some keys' neighbours so the key is \
                            the smallest or largest as often as real rules put it there
                            """
                    ))
            }
            if !trueShareHolds(f.trueKeys, of: f.trueFalse) {
                problems.append(
                    BankProblem(
                        file: f.file, id: "-", field: "correctAnswerIndex",
                        message:
                            """
                            \"True\" is the key in \(f.trueKeys) of \(f.trueFalse) true/false questions \
                            (\(Int(trueShare.lowerBound * 100))-\(Int(trueShare.upperBound * 100))%)
                            """
                    ))
            }
        }
        let absolute = absoluteWords.sorted().map {
            (word: $0, inKeys: absKeys[$0, default: 0], inWrong: absWrong[$0, default: 0])
        }
        for a in absolute where a.inKeys == 0 && a.inWrong >= neverKeyUses {
            problems.append(
                BankProblem(
                    file: "all", id: "-", field: "answers",
                    message:
                        "\"\(a.word)\" is in \(a.inWrong) wrong options and no key: a learner learns to rule it out"))
        }
        for a in absolute where a.inKeys > 0 && a.inKeys + a.inWrong >= neverKeyUses {
            let share = Double(a.inKeys) / Double(a.inKeys + a.inWrong)
            if !absoluteKeyShare.contains(share) {
                problems.append(
                    BankProblem(
                        file: "all", id: "-", field: "answers",
                        message:
                            """
                            \"\(a.word)\" is the key in \(a.inKeys) of its \(a.inKeys + a.inWrong) options \
                            (\(Int((share * 100).rounded()))%; \
                            \(Int(absoluteKeyShare.lowerBound * 100))-\(Int(absoluteKeyShare.upperBound * 100))% \
                            tells nothing)
                            """
                    ))
            }
        }
        let baseline = Double(keys) / Double(max(1, keys + wrong))
        let cue = allWords.filter { $0.value >= 20 }
            .map { (word: $0.key, keyShare: Double(keyWords[$0.key, default: 0]) / Double($0.value), uses: $0.value) }
            .max { abs($0.keyShare - baseline) < abs($1.keyShare - baseline) }
        return Report(
            files: files, overall: overall, absolute: absolute, keys: keys, wrongOptions: wrong, strongestCue: cue,
            problems: problems)
    }

    /// An option's distinct words, lower-cased (letters and apostrophes; read byte by byte: splitting
    /// Strings by Character was most of the lint's time).
    static func words(_ text: String) -> Set<String> {
        var words = Set<String>()
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty {
                words.insert(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): current.append(byte + 32)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "'"): current.append(byte)
            case 0x80...: current.append(byte)  // a letter of another script, kept whole
            default: flush()
            }
        }
        flush()
        return words
    }

    /// At most 55% middle keys; a file with few such questions gets one question of slack.
    static func middleShareHolds(_ middle: Int, of total: Int) -> Bool {
        total == 0 || middle <= Int((Double(total) * maxMiddleKeyShare).rounded(.down)) + 1
    }

    /// "True" in 40-60% of the keys, give or take one question.
    static func trueShareHolds(_ trueKeys: Int, of total: Int) -> Bool {
        guard total > 0 else { return true }
        let low = Int((Double(total) * trueShare.lowerBound).rounded(.up)) - 1
        let high = Int((Double(total) * trueShare.upperBound).rounded(.down)) + 1
        return (low...high).contains(trueKeys)
    }

    static let absoluteWords: Set<String> = ["always", "never", "only", "any"]
    /// Words too common to be a cue on their own.
    static let commonWords: Set<String> = [
        "that", "this", "with", "your", "from", "they", "have", "when", "will", "than", "then",
        "them", "there", "their", "what", "before", "after", "into", "until", "while", "other",
    ]

    static let units: [String: Double] = [
        "day": 1, "days": 1, "week": 7, "weeks": 7, "month": 30.4, "months": 30.4, "year": 365, "years": 365,
        "second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600,
        "inch": 1.0 / 12, "inches": 1.0 / 12, "foot": 1, "feet": 1, "ft": 1, "mile": 5280, "miles": 5280, "yard": 3,
        "yards": 3,
    ]

    /// Each option's number (in a common unit), when every option is one and all differ; nil otherwise.
    /// Leading words all options share ("At least 10 feet") are skipped first.
    static func numericValues(_ answers: [String]) -> [Double]? {
        // Most questions have an option without a digit: out at once (the splitting below is the slow part).
        guard answers.allSatisfy({ $0.utf8.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }) else {
            return nil
        }
        let words = answers.map { $0.split(separator: " ").map(String.init) }
        var shared = 0
        while words.allSatisfy({ $0.count > shared + 1 }), Set(words.map { $0[shared].lowercased() }).count == 1,
            !(words[0][shared].first.map { $0.isNumber || $0 == "$" } ?? false)
        {
            shared += 1
        }
        var values: [Double] = []
        for w in words {
            guard let v = number(w.dropFirst(shared).joined(separator: " ")) else { return nil }
            values.append(v)
        }
        return Set(values).count == values.count ? values : nil
    }

    /// "$1,000" → 1000, "2½ hours" → 9000, "30 days" → 30, "5 feet 3 inches" → 5.25; nil if it does not start with a
    /// number.
    static func number(_ text: String) -> Double? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.first == "$" { rest = rest.dropFirst().drop(while: { $0 == " " }) }
        let digits = rest.prefix(while: { $0.isNumber || $0 == "," || $0 == "." })
        guard let first = digits.first, first.isNumber,
            var value = Double(digits.replacingOccurrences(of: ",", with: ""))
        else { return nil }
        rest = rest.dropFirst(digits.count)
        if rest.first == "½" {
            value += 0.5
            rest = rest.dropFirst()
        }
        rest = rest.drop(while: { $0 == " " || $0 == "-" })
        let unit = rest.prefix(while: \.isLetter).lowercased()
        if let factor = units[unit] { value *= factor }
        if unit == "feet", let inches = rest.dropFirst(unit.count).split(separator: " ").first.flatMap({ Double($0) }),
            rest.contains("inch")
        {
            value += inches / 12
        }
        return value
    }
}
