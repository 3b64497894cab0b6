import FakeBotAPI
import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// Issue #43 item 12: a learner with no state yet saw "📘 MUTCD 11th ed. (2023), preferential lane
/// signs (R3-11)" under an answer: a universal question cites their state's handbook in plain words.
@Suite struct SourceNamesTests {
    @Test func aUniversalAnswerWithNoStateCitesTheHandbookInPlainWords() throws {
        let prompts = try Prompts.load(directory: "\(repoRoot)/Prompts/en")
        var view = try PromptsTests().sampleAnswered
        view.source = "MUTCD 11th ed. (2023), preferential lane signs (R3-11)"
        view.handbook = nil
        view.universal = true
        let text = prompts.render(.answered(view))
        #expect(text.contains("Your state's driver handbook — ") && !text.contains("MUTCD"), "\(text)")
        view.handbook = "Texas Driver Handbook"
        #expect(prompts.render(.answered(view)).contains("📘 <i>Texas Driver Handbook — "))
    }
}
