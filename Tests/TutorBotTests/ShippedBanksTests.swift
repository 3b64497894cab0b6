import Foundation
import Testing
@testable import TutorBot
import TutorCore

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

    /// Each launch state builds four full practice tests with no question repeated across them.
    @Test func everyLaunchStateBuildsFourDisjointPracticeTests() throws {
        let launch = banks.states.filter(\.launch)
        #expect(launch.count == 13)
        for state in launch {
            #expect((banks.stateQuestions[state.code]?.count ?? 0) >= 40, "\(state.code) has at least 40 questions of its own")
            var seen = Set<String>()
            for n in 1...ExamBuilder.fixedTests {
                let exam = try ExamBuilder.fixedTest(n, state: state, pool: banks.pool(for: state.code))
                #expect(exam.questionIDs.count == state.test.sections.reduce(0) { $0 + $1.questions })
                #expect(seen.isDisjoint(with: exam.questionIDs), "\(state.code) test \(n)")
                seen.formUnion(exam.questionIDs)
            }
        }
    }

    @Test func theUniversalBankCoversEveryTopicWithPictures() {
        #expect(banks.universal.count >= 200)
        #expect(banks.universal.filter { $0.isSign && $0.imageAssetName != nil }.count >= 50)
        for topic in Topic.allCases where topic != .stateSpecific {
            #expect(banks.universal.contains { $0.category == topic }, "\(topic)")
        }
        #expect(banks.signs.count >= 50)
        #expect(Set(banks.signs.map(\.group)) == Set(SignGroup.allCases))
    }
}
