import Foundation

/// Word, sentence and syllable counts of lesson text and its Flesch-Kincaid grade, counted exactly
/// as `tools/lessons/reading_grade.py` counts, so the script and the lint report the same grade:
/// - words: runs of ASCII letters, digits and apostrophes; a number is one word of one syllable;
/// - sentences: runs of `.`, `!`, `?`, plus one when the text does not end in one (ignoring
///   trailing characters that are not letters, digits or `_`); at least one;
/// - syllables: vowel groups `[aeiouy]+` of the lower-cased word (apostrophes trimmed from its
///   ends), less one for a final silent "e" (not "le") when there are two or more; at least one.
public struct ReadingCounts: Equatable, Sendable {
    public var words: Int
    public var sentences: Int
    public var syllables: Int

    public init(words: Int = 0, sentences: Int = 0, syllables: Int = 0) {
        self.words = words
        self.sentences = sentences
        self.syllables = syllables
    }

    public init(text: String) {
        var words = 0
        var syllables = 0
        var runs = 0
        var inRun = false
        var word: [UInt8] = []
        word.reserveCapacity(24)
        for b in text.utf8 {
            switch b {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x27: word.append(b)  // A-Z a-z 0-9 '
            default:
                if !word.isEmpty {
                    words += 1
                    syllables += Self.syllables(word)
                    word.removeAll(keepingCapacity: true)
                }
            }
            let stop = b == 0x2E || b == 0x21 || b == 0x3F  // . ! ?
            if stop && !inRun { runs += 1 }
            inRun = stop
        }
        if !word.isEmpty {
            words += 1
            syllables += Self.syllables(word)
        }
        // The script appends a "." unless /[.!?]\W*$/ matches: a stop among the trailing non-word characters.
        var ends = false
        for s in text.unicodeScalars.reversed() {
            if s == "." || s == "!" || s == "?" {
                ends = true
                break
            }
            if Self.isPythonWordCharacter(s) { break }
        }
        self.init(words: words, sentences: max(runs + (ends ? 0 : 1), 1), syllables: syllables)
    }

    /// Python's `\w` on str: `str.isalnum()` (letters, decimals, digits, numerics) or `_`.
    static func isPythonWordCharacter(_ s: Unicode.Scalar) -> Bool {
        if s == "_" { return true }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return s.properties.numericType != nil
        }
    }

    /// One word's syllables (its bytes are ASCII letters, digits and apostrophes).
    static func syllables(_ word: [UInt8]) -> Int {
        var w = word[...]
        while w.first == 0x27 { w = w.dropFirst() }
        while w.last == 0x27 { w = w.dropLast() }
        guard let first = w.first, !(0x30...0x39).contains(first) else { return 1 }
        var groups = 0
        var inVowels = false
        var last: UInt8 = 0
        var beforeLast: UInt8 = 0
        for raw in w {
            let c = (0x41...0x5A).contains(raw) ? raw | 0x20 : raw  // lower-cased
            let vowel = c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6F || c == 0x75 || c == 0x79  // a e i o u y
            if vowel && !inVowels { groups += 1 }
            inVowels = vowel
            beforeLast = last
            last = c
        }
        if last == 0x65, beforeLast != 0x6C, groups > 1 { groups -= 1 }  // a final "e", not "le"
        return max(groups, 1)
    }

    public static func + (a: ReadingCounts, b: ReadingCounts) -> ReadingCounts {
        ReadingCounts(
            words: a.words + b.words, sentences: a.sentences + b.sentences, syllables: a.syllables + b.syllables)
    }

    /// 0.39 · words/sentences + 11.8 · syllables/words − 15.59 (0 for no words), in the script's order of operations.
    public var grade: Double {
        guard words > 0 else { return 0 }
        return 0.39 * Double(words) / Double(sentences) + 11.8 * Double(syllables) / Double(words) - 15.59
    }

    /// The grade to one decimal, as the script prints it.
    public var gradeText: String { String(format: "%.1f", grade) }
}

/// Quality rules for lessons beyond being well-formed (`BankLoader` checks that): each file reads
/// at grade 8 or below, and the lessons teach nearly every question (95% of each universal topic
/// file's, 90% of each state's). `permitready banks lint` prints a line per lesson file.
public enum LessonLint {
    public static let maxGrade = 8.0
    public static let minTopicTaught = 0.95
    public static let minStateTaught = 0.90
    /// Cards longer than this are reported (not a problem): long for a phone screen, though allowed.
    public static let longCardCharacters = 400

    public struct LessonGrade: Equatable, Sendable {
        public var id: String
        public var reading: ReadingCounts
    }

    /// One lesson file (or the file a topic or state is missing).
    public struct FileReport: Equatable, Sendable {
        public var file: String
        public var lessons: Int
        public var cards: Int
        public var reading: ReadingCounts
        public var lessonGrades: [LessonGrade]
        /// The question file whose questions it should teach (`universal/<topic>.json`, `states/XX.json`).
        public var questionFile: String
        public var questions: Int
        /// Questions of `questionFile` that no lesson's `teaches` names, in file order.
        public var untaught: [String]
        public var taught: Int { questions - untaught.count }
        /// Share of `questionFile`'s questions taught somewhere (1 when it has none).
        public var share: Double { questions == 0 ? 1 : Double(taught) / Double(questions) }
        public var minShare: Double
    }

    public struct LongCard: Equatable, Sendable {
        public var file: String
        public var id: String
        public var characters: Int
    }

    /// A topic lesson teaching a universal question some states exclude: its cards are read in
    /// those states too, so a reviewer checks they hold there (reported, not a problem).
    public struct ExcludedTaught: Equatable, Sendable {
        public var file: String
        public var lesson: String
        public var question: String
        public var states: [String]
    }

    public struct Report: Sendable {
        public var files: [FileReport]
        public var problems: [BankProblem]
        public var longCards: [LongCard]
        public var excludedTaught: [ExcludedTaught] = []
    }

    public static func lint(_ banks: Banks) -> Report {
        var p = Problems()
        var taught = Set<String>()
        for lesson in banks.allLessons { taught.formUnion(lesson.teaches) }
        var universalByFile: [String: [String]] = [:]
        for q in banks.universal {
            universalByFile[banks.questionFiles[q.id] ?? "universal/\(q.category.rawValue).json", default: []].append(
                q.id)
        }
        var scopes: [(LessonScope, lessons: [Lesson], questionFile: String, questions: [String], minShare: Double)] = []
        for t in Topic.allCases where t != .stateSpecific {
            let file = "universal/\(t.rawValue).json"
            let lessons = banks.lessons(for: t)
            let questions = universalByFile[file] ?? []
            if !lessons.isEmpty || !questions.isEmpty {
                scopes.append((.topic(t), lessons, file, questions, minTopicTaught))
            }
        }
        for code in banks.states.map(\.code).sorted() {
            let lessons = banks.lessons(forState: code)
            let questions = (banks.stateQuestions[code] ?? []).map(\.id)
            if !lessons.isEmpty || !questions.isEmpty {
                scopes.append((.state(code), lessons, "states/\(code).json", questions, minStateTaught))
            }
        }

        var files: [FileReport] = []
        var longCards: [LongCard] = []
        for (scope, lessons, questionFile, questions, minShare) in scopes {
            let file = scope.file
            var grades: [LessonGrade] = []
            for lesson in lessons {
                let reading = lesson.cards.reduce(ReadingCounts()) { $0 + ReadingCounts(text: $1.text) }
                grades.append(LessonGrade(id: lesson.id, reading: reading))
                for card in lesson.cards where card.text.unicodeScalars.count > longCardCharacters {
                    longCards.append(LongCard(file: file, id: card.id, characters: card.text.unicodeScalars.count))
                }
            }
            let report = FileReport(
                file: file, lessons: lessons.count, cards: lessons.reduce(0) { $0 + $1.cards.count },
                reading: grades.reduce(ReadingCounts()) { $0 + $1.reading }, lessonGrades: grades,
                questionFile: questionFile, questions: questions.count,
                untaught: questions.filter { !taught.contains($0) }, minShare: minShare)
            files.append(report)
            let min = Int(minShare * 100)
            if lessons.isEmpty {
                p.add(
                    file, "-", "file",
                    "missing: none of the \(questions.count) questions of \(questionFile) is taught (at least \(min)%)")
                continue
            }
            if let shown = Double(report.reading.gradeText), shown > maxGrade {
                p.add(
                    file, "-", "cards",
                    "Flesch-Kincaid grade \(report.reading.gradeText); at most \(Int(maxGrade)) "
                        + """
                        (\(report.reading.words) words in \(report.reading.sentences) sentences: shorter \
                        sentences, shorter words)
                        """
                )
            }
            if report.share < minShare {
                p.add(
                    file, "-", "teaches",
                    "\(report.taught) of \(report.questions) questions of \(questionFile) taught "
                        + """
                        (\(percent(report.share))); at least \(min)%; not taught: \
                        \(report.untaught.joined(separator: ", "))
                        """
                )
            }
        }
        var excludedTaught: [ExcludedTaught] = []
        for topic in banks.lessonTopics {
            for lesson in banks.lessons(for: topic) {
                for id in lesson.teaches {
                    let states = banks.excludesUniversal.keys.filter { banks.excludesUniversal[$0]!.contains(id) }
                        .sorted()
                    if !states.isEmpty {
                        excludedTaught.append(
                            ExcludedTaught(file: lesson.scope.file, lesson: lesson.id, question: id, states: states))
                    }
                }
            }
        }
        return Report(files: files, problems: p.list, longCards: longCards, excludedTaught: excludedTaught)
    }

    /// "96.8%", "100%": one decimal unless whole, so 94.6% never shows as a passing 95%.
    public static func percent(_ share: Double) -> String {
        let tenths = (share * 1000).rounded(.down) / 10
        return tenths == tenths.rounded() ? "\(Int(tenths))%" : String(format: "%.1f%%", tenths)
    }
}
