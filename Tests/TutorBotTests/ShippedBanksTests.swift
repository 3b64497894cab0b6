import Foundation
import Testing
import TutorCore

@testable import TutorBot

/// The banks we ship, checked as a whole: valid, and big enough for what the bot promises.
@Suite struct ShippedBanksTests {
    let banks: Banks

    init() throws {
        let dir = ProcessInfo.processInfo.environment["PERMITREADY_TEST_BANKS"] ?? "\(repoRoot)/Banks"
        let (banks, problems) = try BankFiles.load(dir)
        #expect(problems.isEmpty, "\(problems.prefix(10))")
        self.banks = try #require(banks)
    }

    @Test func everyStateAndDCHasAFormat() {
        #expect(banks.states.count == 51)
        for s in banks.states { #expect(!s.test.sections.isEmpty && !s.timeZones.isEmpty, "\(s.code)") }
    }

    /// Every state's four fixed practice tests: full, disjoint, each topic within ±2 questions of
    /// its blueprint quota in every section, the state's own questions in proportion, and topics
    /// mixed through the test (the first build dealt Texas a test of 30 right-of-way questions).
    /// Issue #41: the state's lessons came after ~60 general ones, so two weeks of study might never
    /// reach the state's own permit, alcohol or phone rules. The first now follows road signs, and
    /// the others one after each following topic.
    @Test func everyStatesOwnLessonsComeEarlyAndInterleaved() {
        for state in banks.states {
            let own = banks.lessons(forState: state.code)
            guard !own.isEmpty else { continue }
            let path = banks.lessonPath(forState: state.code)
            let positions = own.compactMap { lesson in path.firstIndex { $0.id == lesson.id } }
            #expect(positions.count == own.count, "\(state.code): every state lesson is on the path")
            #expect(
                (positions.first ?? .max) < 8,
                "\(state.code): its first lesson is lesson \((positions.first ?? -1) + 1)")
            #expect(
                zip(positions, positions.dropFirst()).allSatisfy { $1 - $0 > 1 },
                "\(state.code): interleaved, not in a block")
            #expect(Set(path.map(\.id)).count == path.count, "\(state.code): no lesson twice")
        }
    }

    /// Before: a Kentucky quick quiz held 0 of 10 Kentucky questions (in proportion to the pool, one in fifteen).
    @Test func everyStatesQuickQuizzesAskItsOwnLawAboutOneInFive() {
        for state in banks.states {
            let pool = banks.pool(for: state.code)
            for seed in 1...20 {
                var random = SeededRandom(seed: UInt64(seed))
                let quiz = QuestionPicker.pick(QuestionPicker.quizLength, from: pool, progress: [:], random: &random)
                let own = quiz.filter { $0.stateCode == state.code }.count
                #expect(quiz.count == QuestionPicker.quizLength)
                #expect(own == 2, "\(state.code) quiz \(seed): \(own) of \(quiz.count) from its own file")
            }
            // A quiz on the state's own rules is all its own.
            var random = SeededRandom(seed: 7)
            let own = pool.filter { $0.category == .stateSpecific }
            let quiz = QuestionPicker.pick(QuestionPicker.quizLength, from: own, progress: [:], random: &random)
            #expect(quiz.count == min(QuestionPicker.quizLength, own.count), "\(state.code)")
        }
    }

    @Test func everyStatesFixedTestsFollowTheBlueprint() throws {
        var worst = 0
        for state in banks.states {
            let pool = banks.pool(for: state.code)
            let byID = Dictionary(uniqueKeysWithValues: pool.map { ($0.id, $0) })
            var seen = Set<String>()
            let blueprints = SectionBlueprint.forTest(state.test, pool: pool)
            let floor = SectionBlueprint.minimumStateQuestions(state.test)
            for n in 1...ExamBuilder.fixedTests {
                let exam = try ExamBuilder.fixedTest(n, state: state, pool: pool)
                #expect(
                    exam.questionIDs.count == state.test.sections.reduce(0) { $0 + $1.questions },
                    "\(state.code) test \(n)")
                #expect(
                    seen.isDisjoint(with: exam.questionIDs),
                    "\(state.code) test \(n) repeats a question of an earlier test")
                seen.formUnion(exam.questionIDs)
                // A real test is written from the state's handbook: so is every practice test.
                let stateOwn = exam.questionIDs.filter { byID[$0]?.stateCode != nil }.count
                #expect(
                    stateOwn >= floor,
                    "\(state.code) test \(n): \(stateOwn) of \(exam.questionIDs.count) from the state's own file, at least \(floor) wanted"
                )
                for (s, section) in state.test.sections.enumerated() {
                    let asked = exam.questionIDs.indices.filter { exam.sectionOfQuestion[$0] == s }.map {
                        byID[exam.questionIDs[$0]]!
                    }
                    let blueprint = blueprints[s]
                    for quota in blueprint.quotas {
                        let got = asked.filter { $0.category == quota.topic }.count
                        worst = max(worst, abs(got - quota.total))
                        #expect(
                            abs(got - quota.total) <= 2,
                            "\(state.code) test \(n) \(section.name): \(quota.topic) \(got), quota \(quota.total)")
                    }
                    let own = asked.filter { $0.stateCode != nil }.count
                    let ownQuota = blueprint.quotas.reduce(0) { $0 + $1.stateOwn }
                    #expect(
                        abs(own - ownQuota) <= 2,
                        "\(state.code) test \(n) \(section.name): \(own) state questions, quota \(ownQuota)")
                    // Mixed: no topic runs more than three in a row where the section has three topics or more.
                    if Set(asked.map(\.category)).count >= 3 {
                        var run = 1
                        var longest = 1
                        for i in asked.indices.dropFirst() {
                            run = asked[i].category == asked[i - 1].category ? run + 1 : 1
                            longest = max(longest, run)
                        }
                        #expect(
                            longest <= 3,
                            "\(state.code) test \(n) \(section.name): \(longest) questions of one topic in a row")
                    }
                }
            }
        }
        #expect(worst <= 2)
    }

    /// A learner who knows nothing and always picks the longest option must not pass: the first
    /// bank's keys were the longest option 65% of the time, a pass about 4 times in 10 in TX and NY.
    @Test func pickingTheLongestOptionDoesNotPass() throws {
        for state in banks.states {
            let pool = banks.pool(for: state.code)
            let chance = Dictionary(
                uniqueKeysWithValues: pool.map { q -> (String, Double) in
                    let key = q.answers[q.correctAnswerIndex].count
                    let longest =
                        q.kind == .multipleChoice
                        && q.answers.indices.allSatisfy { $0 == q.correctAnswerIndex || q.answers[$0].count < key }
                    // Otherwise a guess among the options (true/false: one in two; typed: nothing).
                    return (q.id, longest ? 1 : (q.kind == .fillIn ? 0 : (q.kind == .trueFalse ? 0.5 : 0)))
                })
            let p = Readiness.passProbability(format: state.test, pool: pool, chance: chance)
            #expect(p < 0.05, "\(state.code): the longest-option picker passes \(Int(p * 100))% of random tests")
        }
    }

    /// The shipped banks meet every quality rule (`permitready banks lint`).
    @Test func theShippedBanksAreLintClean() {
        let report = BankLint.lint(banks)
        #expect(report.problems.isEmpty, "\(report.problems.prefix(10).map(\.description))")
        #expect(report.universalCount >= 400)
        #expect(banks.signs.count >= 130)
    }

    /// Every topic and every state has lessons, and the lesson lint (grade, questions taught) passes.
    @Test func theShippedLessonsLoadAndAreLintClean() {
        #expect(banks.lessonTopics == Topic.allCases.filter { $0 != .stateSpecific })
        for state in banks.states {
            #expect(BankLoader.lessonsPerStateFile.contains(banks.lessons(forState: state.code).count), "\(state.code)")
        }
        #expect(banks.lessonFiles.count == 19 + 51)
        let report = LessonLint.lint(banks)
        #expect(report.problems.isEmpty, "\(report.problems.prefix(10).map(\.description))")
        #expect(report.files.count == 19 + 51)
        #expect(report.files.allSatisfy { $0.reading.grade <= LessonLint.maxGrade && $0.share >= $0.minShare })
    }

    /// A universal question a state's law contradicts (`excludesUniversal`) is in none of that
    /// state's pools or fixed practice tests, and still in the other states'.
    @Test func excludedUniversalQuestionsAreNeverAskedInTheirState() throws {
        #expect(!banks.excludesUniversal.isEmpty)
        for (code, excluded) in banks.excludesUniversal {
            let state = try #require(banks.state(code))
            #expect(banks.pool(for: code).allSatisfy { !excluded.contains($0.id) }, "\(code)")
            #expect(banks.poolIDs(for: code).isDisjoint(with: excluded), "\(code)")
            for n in 1...ExamBuilder.fixedTests {
                #expect(
                    try ExamBuilder.fixedTest(n, state: state, pool: banks.pool(for: code)).questionIDs.allSatisfy {
                        !excluded.contains($0)
                    }, "\(code) test \(n)")
            }
            for id in excluded {
                #expect(banks.question(id)?.stateCode == nil)
                #expect(
                    banks.states.contains {
                        banks.excludesUniversal[$0.code]?.contains(id) != true
                            && banks.poolIDs(for: $0.code).contains(id)
                    })
            }
        }
    }

    @Test func theUniversalBankCoversEveryTopicWithPictures() {
        #expect(banks.universal.count >= 400)
        #expect(banks.universal.filter { $0.isSign && $0.imageAssetName != nil }.count >= 100)
        for topic in Topic.allCases where topic != .stateSpecific {
            #expect(banks.universal.contains { $0.category == topic }, "\(topic)")
        }
        #expect(banks.signs.count >= 130)
        #expect(Set(banks.signs.map(\.group)) == Set(SignGroup.allCases))
    }
}
