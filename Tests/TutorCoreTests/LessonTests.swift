import Foundation
import Testing

@testable import TutorCore

/// Lesson files (`lessons/universal/<topic>.json`, `lessons/states/XX.json`), `excludesUniversal`,
/// and the lesson lint.
@Suite struct LessonTests {
    static func fixture() throws -> BankSources {
        let dir = try #require(Bundle.module.path(forResource: "broken-lessons", ofType: nil, inDirectory: "Fixtures"))
        return try BankLoaderTests.sources(dir)
    }

    /// The fixture's question files are sound; its lesson files, `retired-ids.json` and OH's
    /// `excludesUniversal` break every rule once, each reported by file, id and field, all in one load.
    @Test func brokenLessonFixtureReportsEveryProblemAtOnce() throws {
        let (banks, problems) = BankLoader.load(try Self.fixture())
        #expect(banks == nil)
        let expected = [
            "states/OH.json: -: excludesUniversal: no universal question u-nope",
            "states/OH.json: -: excludesUniversal: oh-2 is a OH question, not a universal one",
            "states/OH.json: -: excludesUniversal: u-park-1 is listed twice",
            "lessons/retired-ids.json: u-bad: kept: must be the id of the question kept, or null",
            "lessons/retired-ids.json: u-park-4: id: retired, but a question still uses this id (ids are never reused)",
            "lessons/retired-ids.json: u-lost: kept: no question u-nothing (nor a question it was merged into)",
            "lessons/states/OH.json: -: stateCode: must be \"OH\" to match the file name",
            "lessons/states/OH.json: -: lessons: 1 lessons; a state file has 2-4",
            "lessons/states/OH.json: l-oh-1-1: id: duplicate id (also in lessons/states/OH.json)",
            "lessons/states/OH.json: L-OH-1-3: id: use only a-z, 0-9 and -",
            "lessons/states/OH.json: L-OH-1-3: id: must start with \"l-oh-1-\"",
            "lessons/states/OH.json: L-OH-1-3: source: must be a non-empty string",
            "lessons/states/OH.json: l-oh-1: checkQuestionIds: tx-1 is a TX question; a OH lesson uses its own state's or universal questions",
            "lessons/states/OH.json: l-oh-1: checkQuestionIds: u-park-1 is excluded in OH (excludesUniversal)",
            "lessons/states/OH.json: l-oh-1: teaches: tx-1 is a TX question; a OH lesson uses its own state's or universal questions",
            "lessons/states/TX.json: -: changelog: missing",
            "lessons/states/TX.json: -: lessons: missing or not an array",
            "lessons/states/ZZ.json: -: stateCode: unknown state ZZ (not in states.json)",
            "lessons/universal/parking.json: -: changelog: needs at least one entry",
            "lessons/universal/parking.json: -: topic: must be \"parking\" to match the file name",
            "lessons/universal/parking.json: -: lessons: 1 lessons; a topic file has 2-5",
            "lessons/universal/parking.json: l-roadsigns-1-1: id: must start with \"l-parking-1-\"",
            "lessons/universal/parking.json: l-parking-1: checkQuestionIds: u-park-1 is excluded in OH (excludesUniversal), "
                + "and a topic lesson's checks are asked in every state",
            "lessons/universal/roadSigns.json: l-roadsigns-1-1: id: duplicate id (also in lessons/universal/parking.json)",
            "lessons/universal/roadSigns.json: l-roadsigns-2: cards: 2 cards; a lesson has 3-6",
            "lessons/universal/roadSigns.json: l-roadsigns-2-1: text: must be a non-empty string",
            "lessons/universal/roadSigns.json: l-roadsigns-2-1: imageAssetName: no sign \"rain\" in signs.json",
            "lessons/universal/roadSigns.json: l-roadsigns-2-2: text: 480 characters; at most 450",
            "lessons/universal/roadSigns.json: l-roadsigns-2-2: source: missing",
            "lessons/universal/roadSigns.json: l-roadsigns-2-2: imageAssetName: must be a sign id or null",
            "lessons/universal/roadSigns.json: l-roadsigns-2: checkQuestionIds: u-sign-6 is a typed (fillIn) question; checks are multiple choice or true/false",
            "lessons/universal/roadSigns.json: l-roadsigns-2: checkQuestionIds: no question u-nope",
            "lessons/universal/roadSigns.json: l-roadsigns-2: checkQuestionIds: oh-1 is a state question (OH); a topic lesson uses universal questions",
            "lessons/universal/roadSigns.json: l-roadsigns-2: checkQuestionIds: u-sign-4 is not in teaches",
            "lessons/universal/roadSigns.json: l-roadsigns-2: checkQuestionIds: u-sign-4 is listed twice",
            "lessons/universal/roadSigns.json: l-roadsigns-2: teaches: oh-1 is a state question (OH); a topic lesson uses universal questions",
            "lessons/universal/roadSigns.json: l-roadsigns-2: teaches: u-gone was retired (merged into u-sign-2)",
            "lessons/universal/weather.json: -: file: universal lesson files are named lessons/universal/<topic>.json after a topic other than stateSpecific",
        ]
        #expect(problems.map(\.description) == expected)
    }

    @Test func idsAreCheckedWithoutARegularExpression() {
        for id in ["l-ca-1", "u-sign-001", "0", "a-b-c"] { #expect(BankLoader.isValidID(id), "\(id)") }
        for id in ["", "-a", "L-ca-1", "a_b", "a b", "é", "a.json"] { #expect(!BankLoader.isValidID(id), "\(id)") }
        #expect(
            BankLoader.isValidID("a-") == ("a-".range(of: BankLoader.idPattern, options: .regularExpression) != nil))
    }

    /// The same questions with sound lessons: they load into `Banks` per topic and per state, in file order.
    static func soundBanks() throws -> Banks {
        var sources = try fixture()
        for name in sources.files.keys where name.hasPrefix("lessons/") { sources.files[name] = nil }
        sources.files["states/OH.json"] = try Self.withoutBadExcludes(sources.files["states/OH.json"])
        func lesson(_ id: String, _ checks: [String], teaches: [String] = [], image: String? = nil) -> String {
            let cards = (1...3).map { n in
                #"{ "id": "\#(id)-\#(n)", "text": "Card \#(n) of \#(id). It is short.", "imageAssetName": \#(image.map { "\"\($0)\"" } ?? "null"), "source": "Manual" }"#
            }
            return #"{ "id": "\#(id)", "title": "Title \#(id)", "cards": [\#(cards.joined(separator: ", "))], "#
                + #""checkQuestionIds": [\#(checks.map { "\"\($0)\"" }.joined(separator: ", "))], "teaches": [\#((checks + teaches).map { "\"\($0)\"" }.joined(separator: ", "))] }"#
        }
        func file(_ key: String, _ value: String, _ lessons: [String]) -> Data {
            Data(
                #"{ "version": "1.0.0", "lastUpdated": "2026-11-26", "\#(key)": "\#(value)", "changelog": [ { "version": "1.0.0", "date": "2026-11-26", "notes": "n" } ], "lessons": [\#(lessons.joined(separator: ", "))] }"#
                    .utf8)
        }
        sources.files["lessons/universal/roadSigns.json"] = file(
            "topic", "roadSigns",
            [
                lesson("l-roadsigns-2", ["u-sign-1", "u-sign-2", "u-sign-3"], teaches: ["u-sign-6"], image: "stop"),
                lesson("l-roadsigns-1", ["u-sign-4", "u-sign-5", "u-sign-1"]),
            ])
        sources.files["lessons/universal/parking.json"] = file(
            "topic", "parking",
            [
                lesson("l-parking-1", ["u-park-2", "u-park-3", "u-park-4"], teaches: ["u-park-1"]),
                lesson("l-parking-2", ["u-park-2", "u-park-3", "u-park-4"]),
            ])
        sources.files["lessons/states/OH.json"] = file(
            "stateCode", "OH",
            [
                lesson("l-oh-1", ["oh-1", "oh-2", "u-sign-1"]), lesson("l-oh-2", ["oh-3", "oh-4", "u-park-2"]),
            ])
        let (banks, problems) = BankLoader.load(sources)
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        return try #require(banks)
    }

    static func withoutBadExcludes(_ data: Data?) throws -> Data {
        var text = String(decoding: try #require(data), as: UTF8.self)
        text = text.replacingOccurrences(
            of: #""u-park-1",\s*"u-nope",\s*"oh-2",\s*"u-park-1""#, with: #""u-park-1""#, options: .regularExpression)
        return Data(text.utf8)
    }

    @Test func soundLessonsLoadPerTopicAndStateInFileOrder() throws {
        let banks = try Self.soundBanks()
        #expect(banks.lessonTopics == [.roadSigns, .parking])
        #expect(banks.lessons(for: .roadSigns).map(\.id) == ["l-roadsigns-2", "l-roadsigns-1"])
        #expect(banks.lessons(forState: "OH").map(\.id) == ["l-oh-1", "l-oh-2"])
        #expect(banks.lessons(forState: "TX").isEmpty)
        #expect(
            banks.allLessons.map(\.id) == [
                "l-roadsigns-2", "l-roadsigns-1", "l-parking-1", "l-parking-2", "l-oh-1", "l-oh-2",
            ])
        let first = try #require(banks.lesson("l-roadsigns-2"))
        #expect(first.topic == .roadSigns && first.stateCode == nil && first.title == "Title l-roadsigns-2")
        #expect(first.cards.map(\.id) == ["l-roadsigns-2-1", "l-roadsigns-2-2", "l-roadsigns-2-3"])
        #expect(
            first.cards[0]
                == LessonCard(
                    id: "l-roadsigns-2-1", text: "Card 1 of l-roadsigns-2. It is short.", imageAssetName: "stop",
                    source: "Manual"))
        #expect(first.checkQuestionIds == ["u-sign-1", "u-sign-2", "u-sign-3"])
        #expect(first.teaches == ["u-sign-1", "u-sign-2", "u-sign-3", "u-sign-6"])
        #expect(banks.lesson("l-oh-2")?.scope == .state("OH"))
        #expect(
            banks.lessonFiles.map(\.file) == [
                "lessons/states/OH.json", "lessons/universal/parking.json", "lessons/universal/roadSigns.json",
            ])
        #expect(banks.excludesUniversal == ["OH": ["u-park-1"]])
    }

    /// A universal question a state excludes is in no pool, quiz, topic, review or practice test
    /// of that state, and still in every other state's.
    @Test func anExcludedUniversalQuestionIsNeverAskedInThatState() throws {
        let ohio = PracticeSample.ohio
        let texas = StateInfo(
            code: "TX", name: "Texas", timeZones: ["America/Chicago"], minPermitAge: 15, handbook: "", launch: true,
            confidence: .high, note: nil, test: ohio.test)
        let universal = PracticeSample.pool(signs: 90, rules: 120)
        let excluded = ["u-t-1003", "u-t-2004"]  // a sign and a parking question
        let banks = Banks(
            states: [ohio, texas], universal: universal, stateQuestions: [:], excludesUniversal: ["OH": excluded])
        #expect(banks.pool(for: "OH").count == universal.count - 2)
        #expect(banks.pool(for: "TX").count == universal.count)
        for id in excluded {
            #expect(!banks.pool(for: "OH").contains { $0.id == id })
            #expect(!banks.poolIDs(for: "OH").contains(id) && banks.poolIDs(for: "TX").contains(id))
            #expect(banks.poolPositions(for: "OH")?[id] == nil)
        }
        var asked = Set<String>()
        for n in 1...ExamBuilder.fixedTests {
            asked.formUnion(try ExamBuilder.fixedTest(n, state: ohio, pool: banks.pool(for: "OH")).questionIDs)
        }
        for seed in 0..<50 {
            var random = SeededRandom(seed: UInt64(seed))
            asked.formUnion(
                try ExamBuilder.randomTest(state: ohio, pool: banks.pool(for: "OH"), random: &random).questionIDs)
        }
        // Through the dialogue: practice tests, quick quizzes, topic quizzes, sign drills, reviews.
        let actions: [ButtonAction] =
            (0...4).map { .startTest($0) } + [
                .menu(.quickQuiz), .pickTopic(.parking), .pickTopic(.roadSigns),
                .quizSigns(.regulatory), .menu(.review),
            ]
        for seed in 0..<40 {
            for action in actions {
                var s = Sample.newChat()
                s.learner.stateCode = "OH"
                for id in excluded + ["u-t-1001"] {
                    s.progress[id] = QuestionStats(seen: 1, lastAnsweredAt: Sample.t0, missed: true)
                }
                (s, _) = Dialogue.reduce(
                    s, .buttonTapped(callbackID: "c", action: action, messageID: 1),
                    DialogueContext(banks: banks, now: Sample.t0, seed: UInt64(seed)))
                asked.formUnion(s.session.quiz?.questionIDs ?? [])
            }
        }
        #expect(asked.count > 150, "the draws cover most of the pool")
        #expect(asked.contains("u-t-1001"), "the review asks the other miss")
        #expect(asked.isDisjoint(with: excluded))
    }

    /// The Swift count and grade agree with `tools/lessons/reading_grade.py` (figures from
    /// `python3 -c 'import reading_grade as r; print(r.counts(t), round(r.grade(*r.counts(t)), 1))'`).
    @Test func readingGradeMatchesTheScript() {
        let cases: [(String, ReadingCounts, String)] = [
            (
                "A red octagon means STOP. Stop completely at the stop line! Don't roll through it...",
                ReadingCounts(words: 15, sentences: 3, syllables: 20), "2.1"
            ),
            (
                "You'll need 50 hours of practice, 10 at night (see \"Logging hours\")",
                ReadingCounts(words: 12, sentences: 1, syllables: 14), "2.9"
            ),
            (
                "The little table's single fire hydrant: whole, simple, there's 15 feet to keep clear. Use the U.S. rule?) ",
                ReadingCounts(words: 19, sentences: 4, syllables: 27), "3.0"
            ),
            (
                "Café drivers’ rules — naïve 3rd-gen vehicles recycle able 'quoted' words",
                ReadingCounts(words: 12, sentences: 1, syllables: 20), "8.8"
            ),
            ("", ReadingCounts(words: 0, sentences: 1, syllables: 0), "0.0"),
        ]
        for (text, counts, grade) in cases {
            let got = ReadingCounts(text: text)
            #expect(got == counts, "\(text)")
            #expect(got.gradeText == grade, "\(text)")
        }
    }

    @Test func lessonLintReportsGradeCoverageAndLongCards() throws {
        let banks = try Self.soundBanks()
        let report = LessonLint.lint(banks)
        #expect(
            report.files.map(\.file) == [
                "lessons/universal/roadSigns.json", "lessons/universal/parking.json", "lessons/states/OH.json",
                "lessons/states/TX.json",
            ])
        let signs = report.files[0]
        #expect(signs.lessons == 2 && signs.cards == 6 && signs.questionFile == "universal/roadSigns.json")
        #expect(signs.taught == 6 && signs.questions == 6 && signs.untaught.isEmpty)
        #expect(signs.lessonGrades.map(\.id) == ["l-roadsigns-2", "l-roadsigns-1"])
        #expect(signs.reading.words == 6 * 9 && signs.reading.sentences == 6 * 2)  // "Card 1 of l-roadsigns-2. It is short."
        let ohio = report.files[2]
        #expect(ohio.taught == 4 && ohio.share == 1)
        #expect(report.longCards.isEmpty)
        // u-park-1 (excluded in OH) is taught by l-parking-1, which OH learners read too.
        #expect(
            report.excludedTaught == [
                LessonLint.ExcludedTaught(
                    file: "lessons/universal/parking.json", lesson: "l-parking-1",
                    question: "u-park-1", states: ["OH"])
            ])
        #expect(
            report.problems.map(\.description) == [
                "lessons/states/TX.json: -: file: missing: none of the 3 questions of states/TX.json is taught (at least 90%)"
            ])

        // Hard words in long sentences, one question untaught of four, one long card.
        var lessons = banks.universalLessons
        lessons[.parking]![1].cards[0].text =
            String(repeating: "Unnecessary acceleration immediately endangers vulnerable pedestrians ", count: 6) + "."
        lessons[.parking]![0].teaches = ["u-park-2", "u-park-3", "u-park-4"]
        let changed = Banks(
            states: banks.states, universal: banks.universal, stateQuestions: banks.stateQuestions, signs: banks.signs,
            questionFiles: banks.questionFiles, universalLessons: lessons, stateLessons: banks.stateLessons)
        let again = LessonLint.lint(changed)
        let parking = again.files[1]
        #expect(parking.untaught == ["u-park-1"] && parking.share == 0.75)
        #expect(
            again.longCards == [
                LessonLint.LongCard(file: "lessons/universal/parking.json", id: "l-parking-2-1", characters: 421)
            ])
        #expect(
            again.problems.map(\.description).contains(
                "lessons/universal/parking.json: -: teaches: 3 of 4 questions of universal/parking.json taught (75%); at least 95%; not taught: u-park-1"
            ))
        #expect(
            again.problems.contains {
                $0.file == "lessons/universal/parking.json" && $0.field == "cards"
                    && $0.message.hasPrefix("Flesch-Kincaid grade ")
            })
        #expect(
            LessonLint.percent(0.9468) == "94.6%" && LessonLint.percent(30.0 / 31) == "96.7%"
                && LessonLint.percent(1) == "100%")
    }
}
