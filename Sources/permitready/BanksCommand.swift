import ArgumentParser
import Foundation
import TutorBot
import TutorCore
import TutorStore

/// `permitready banks validate | lint | reload`: the question banks checked, linted and reloaded.
extension PermitReady {
    struct BanksCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "banks", abstract: "Work with the question banks.",
            subcommands: [Validate.self, Lint.self, Reload.self])

        struct Reload: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Ask the running bot to re-read and validate Banks/ (through the database).",
                discussion:
                    """
                    Validates the files first: with any problem nothing is asked of the bot and the command \
                    exits non-zero (the bot would refuse them, and would not start with them). Exits non-zero if \
                    the bot refused them too.
                    """
            )
            @OptionGroup var paths: Paths

            func run() throws {
                let config = paths.config(token: "", defaultDB: "permitready.sqlite")
                let checked: (banks: Banks?, problems: [BankProblem])
                do { checked = try BankFiles.load(config.banksDirectory) } catch { throw fail("\(error)") }
                guard checked.banks != nil else {
                    for line in BankProblemReport.lines(checked.problems) { print(line) }
                    throw fail(
                        "\(checked.problems.count) problem(s) in \(config.banksDirectory): not reloaded. "
                            + """
                            The running bot keeps the banks it has, but the bot will not start with these files: \
                            fix them first
                            """
                    )
                }
                let store: TutorStore
                do { store = try TutorStore(path: config.databasePath, access: .current) } catch {
                    throw fail("\(error)")
                }
                try store.setFlag(Bot.reloadResultFlag, nil)
                try store.setFlag(Bot.reloadFlag, ISO8601DateFormatter().string(from: Date()))
                for _ in 0..<100 {
                    if let result = try store.flag(Bot.reloadResultFlag) {
                        print(result)
                        // The bot read the files a moment after this command did: they may have changed since.
                        if result.contains("NOT reloaded") { throw fail("the bot refused the banks (above)") }
                        return
                    }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                print(
                    """
                    The files are valid. Reload requested; no running bot answered within 10 s. It will reload \
                    when it next runs (banks are always read at start).
                    """
                )
            }
        }

        struct Validate: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Check every bank file; list every problem (file: id: field: message).")
            @Option(name: .long, help: "Banks folder.") var dir: String = "Banks"

            func run() throws {
                let started = Date()
                let result: (banks: Banks?, problems: [BankProblem])
                do { result = try BankFiles.load(dir) } catch { throw fail("\(error)") }
                let ms = Int(Date().timeIntervalSince(started) * 1000)
                guard let banks = result.banks else {
                    for line in BankProblemReport.lines(result.problems) { print(line) }
                    throw fail("\(result.problems.count) problem(s) in \(dir)")
                }
                let stateCount = banks.stateQuestions.values.reduce(0) { $0 + $1.count }
                let lessons = banks.allLessons
                print(
                    "\(dir): OK — \(banks.states.count) states, \(banks.universal.count) universal + \(stateCount) "
                        + "state questions in \(banks.stateQuestions.count) state files, \(banks.signs.count) signs, "
                            + """
                            \(lessons.count) lessons (\(lessons.reduce(0) { $0 + $1.cards.count }) cards) in \
                            \(banks.lessonFiles.count) lesson files (\(ms) ms)
                            """
                )
            }
        }

        struct Lint: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    """
                    Check the banks are a fair test: length cues, near-duplicates, typed answers, pictures, \
                    topic coverage; lessons' reading grade and what they teach.
                    """,
                discussion:
                    """
                    Prints the longest-option share per file and category, a line per lesson file (lessons, \
                    cards, grade, questions taught) and every problem; exits non-zero on any.
                    """
            )
            @Option(name: .long, help: "Banks folder.") var dir: String = "Banks"
            @Flag(
                name: .long,
                help:
                    """
                    Print the longest-option table for every file and category, and each lesson's grade, not \
                    only the files.
                    """
            ) var table = false

            func run() throws {
                let started = Date()
                let result: (banks: Banks?, problems: [BankProblem])
                do { result = try BankFiles.load(dir) } catch { throw fail("\(error)") }
                guard let banks = result.banks else {
                    for line in BankProblemReport.lines(result.problems) { print(line) }
                    throw fail("\(result.problems.count) problem(s) in \(dir): fix what `banks validate` reports first")
                }
                let linting = Date()
                let report = BankLint.lint(banks)
                let lessons = LessonLint.lint(banks)
                let guessing = GuessingLint.lint(banks)
                let stateRules = StateRuleCheck.check(banks)
                let ms = Int(Date().timeIntervalSince(started) * 1000)
                let lintMS = Int(Date().timeIntervalSince(linting) * 1000)
                print(
                    """
                    key is the strictly longest option (multiple choice; at most \
                    \(Int(BankLint.maxLongestKeyShare * 100))% per file and category):
                    """
                )
                for c in report.lengthCues where table || c.category == nil {
                    let pct = Int((c.share * 100).rounded())
                    print(
                        "  \(c.file)\(c.category.map { " · \($0.rawValue)" } ?? ""): \(c.keyLongest)/"
                            + "\(c.multipleChoice) (\(pct)%)"
                    )
                }
                let topics = Topic.allCases.filter { $0 != .stateSpecific }.map {
                    "\($0.rawValue) \(report.universalPerTopic[$0, default: 0])"
                }
                print("universal questions: \(report.universalCount) — " + topics.joined(separator: ", "))
                print("near-duplicate pairs: \(report.nearDuplicatePairs); pictures: \(banks.signs.count)")
                printLessons(lessons)
                printGuessing(guessing)
                print(stateRules.summary)
                let problems = report.problems + lessons.problems + guessing.problems + stateRules.problems
                for p in problems { print(p) }
                if !problems.isEmpty { throw fail("\(problems.count) lint problem(s) in \(dir) (\(ms) ms)") }
                print("\(dir): lint OK (load + validate + lint \(ms) ms, of which lint \(lintMS) ms)")
            }

            /// What a guesser could exploit, overall (and per file with --table).
            func printGuessing(_ g: GuessingLint.Report) {
                func pct(_ n: Int, _ d: Int) -> String {
                    d == 0 ? "-" : "\(Int((100 * Double(n) / Double(d)).rounded()))%"
                }
                let o = g.overall
                print(
                    """
                    guessing patterns: key is a middle value in \(o.middleKeys)/\(o.allNumber) all-number \
                    questions (\(pct(o.middleKeys, o.allNumber)); at most \
                    \(Int(GuessingLint.maxMiddleKeyShare * 100))% per file), \"True\" is the key in \
                    \(o.trueKeys)/\(o.trueFalse) true/false questions (\(pct(o.trueKeys, o.trueFalse)); 40-60% \
                    per file)
                    """
                )
                if table {
                    for f in g.files where f.allNumber + f.trueFalse > 0 {
                        print("  \(f.file): middle \(f.middleKeys)/\(f.allNumber), True \(f.trueKeys)/\(f.trueFalse)")
                    }
                }
                let words = g.absolute.map {
                    "\($0.word) \($0.inKeys) / \($0.inWrong) (key in \(pct($0.inKeys, $0.inKeys + $0.inWrong)))"
                }
                print(
                    "absolute words, options that are keys / wrong options: " + words.joined(separator: ", ")
                        + " (any option is the key in \(pct(g.keys, g.keys + g.wrongOptions)); "
                        + "\(Int(GuessingLint.absoluteKeyShare.lowerBound * 100))-"
                        + "\(Int(GuessingLint.absoluteKeyShare.upperBound * 100))% holds)"
                )
                if let cue = g.strongestCue {
                    print(
                        """
                        strongest single-word cue: \"\(cue.word)\" — the key in \
                        \(Int((cue.keyShare * 100).rounded()))% of its \(cue.uses) options (any option: \
                        \(pct(g.keys, g.keys + g.wrongOptions)))
                        """
                    )
                }
            }

            func printLessons(_ report: LessonLint.Report) {
                print(
                    "lessons (Flesch-Kincaid grade at most \(Int(LessonLint.maxGrade)) per file; questions taught: "
                        + """
                        at least \(Int(LessonLint.minTopicTaught * 100))% of each universal topic file, \
                        \(Int(LessonLint.minStateTaught * 100))% of each state's):
                        """
                )
                for f in report.files {
                    print(
                        "  \(f.file): \(f.lessons) lessons, \(f.cards) cards, grade \(f.reading.gradeText), "
                            + "taught \(f.taught)/\(f.questions) of \(f.questionFile) (\(LessonLint.percent(f.share)))")
                    if table { for l in f.lessonGrades { print("    \(l.id): grade \(l.reading.gradeText)") } }
                    if !f.untaught.isEmpty { print("    not taught: \(f.untaught.joined(separator: ", "))") }
                }
                print(
                    """
                    cards over \(LessonLint.longCardCharacters) characters (allowed up to \
                    \(BankLoader.maxCardCharacters)): \(report.longCards.count)
                    """
                )
                for c in report.longCards { print("  \(c.file): \(c.id): \(c.characters) characters") }
                print(
                    """
                    topic lessons teaching a question some states exclude (their cards are read there too): \
                    \(report.excludedTaught.count)
                    """
                )
                for e in report.excludedTaught {
                    print("  \(e.file): \(e.lesson): \(e.question) (excluded in \(e.states.joined(separator: ", ")))")
                }
            }
        }
    }
}
