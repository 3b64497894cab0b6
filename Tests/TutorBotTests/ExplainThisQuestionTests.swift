import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// "what does that mean" at a quiz question is about that question (a play-tester's got "I'm
/// PermitReady, a study bot, and I only know the permit test").
@Suite struct ExplainThisQuestionTests {
    let banks: Banks

    init() throws {
        let (banks, problems) = try BankFiles.load("\(repoRoot)/Banks")
        #expect(problems.isEmpty)
        self.banks = try #require(banks)
    }

    static func sent(_ effects: [Effect]) -> [Reply] {
        effects.compactMap { effect -> Reply? in if case .send(let r) = effect { r } else { nil } }
    }

    @Test func beforeTheAnswerItWaitsAfterItTheLessonCardTeachesIt() throws {
        let chat = TestChat(banks: banks, chatID: 61, name: "Tyler")
        _ = chat.reduce(.commandSent(.start, payload: "MI"))
        _ = chat.tap(.menu(.quickQuiz))
        let quiz = try #require(chat.state.session.quiz)
        // Not answered yet: no explanation that gives the answer away, and the question stays open.
        let early = Self.sent(chat.reduce(.textSent("what does that mean?")))
        #expect(early.map(\.message) == [.notice(.explainAfterAnswer)], "\(early)")
        #expect(chat.state.session.quiz?.phase == .asking)
        _ = chat.tap(.answer(quiz: quiz.id, question: 0, option: 0))
        // Answered: the card of the lesson that teaches the question, then Next.
        let later = Self.sent(chat.reduce(.textSent("i dont get it")))
        let card = try #require(later.first)
        guard case .askAnswer(let view) = card.message else {
            Issue.record("expected a lesson card, got \(card.message)")
            return
        }
        let taught = try #require(banks.question(quiz.questionIDs[0]))
        let lesson = try #require(AskQuizPicker.lesson(teaching: AskRef(taught.id), banks: banks))
        if case .card(_, let text) = view.body {
            #expect(lesson.cards.contains { $0.text == text }, "a card of the lesson teaching \(taught.id)")
        } else {
            Issue.record("expected a card body, got \(view.body)")
        }
        #expect(later.last?.message == .notice(.backToTheQuiz))
        // A short "why" is about the question too.
        let why = Self.sent(chat.reduce(.textSent("why is it not b")))
        #expect(why.last?.message == .notice(.backToTheQuiz), "\(why)")
        #expect(chat.state.session.quiz?.index == 0, "the quiz waits on its Next")
    }
}
