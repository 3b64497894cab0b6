import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// Words a second play-test found taken the wrong way around a quiz.
@Suite struct QuizWordsTests {
    let banks: Banks

    init() throws {
        let (banks, problems) = try BankFiles.load("\(repoRoot)/Banks")
        #expect(problems.isEmpty)
        self.banks = try #require(banks)
    }

    /// "continue" on Home with a quiz waiting is ▶️ Continue (it opened the first lesson).
    @Test func continueOnHomeResumesTheOpenQuiz() throws {
        let chat = TestChat(banks: banks, chatID: 71, name: "Priya")
        _ = chat.reduce(.commandSent(.start, payload: "IL"))
        _ = chat.tap(.menu(.quickQuiz))
        let quiz = try #require(chat.state.session.quiz)
        _ = chat.tap(.menu(.home))
        #expect(chat.state.session.screen == .home)
        _ = chat.reduce(.textSent("continue"))
        #expect(chat.state.session.screen == .quiz && chat.state.session.quiz?.id == quiz.id)
        #expect(chat.state.session.lesson == nil)
    }

    /// "next" at a question with no options is a skip, never graded as the answer "next".
    @Test func nextAtATypedAnswerQuestionIsASkip() throws {
        let chat = TestChat(banks: banks, chatID: 72, name: "Marcus")
        _ = chat.reduce(.commandSent(.start, payload: "GA"))
        // Quick quizzes until one deals a typed-answer question, then "next" at it.
        for _ in 0..<40 {
            _ = chat.tap(.menu(.quickQuiz))
            guard let quiz = chat.state.session.quiz else { continue }
            for i in quiz.questionIDs.indices {
                guard let current = chat.state.session.quiz, current.index == i,
                    let q = banks.question(current.currentQuestionID)
                else { break }
                if q.kind == .fillIn {
                    _ = chat.reduce(.textSent("next"))
                    let given = try #require(chat.state.session.quiz?.answers.last)
                    #expect(given.chosen == -1, "a skip, not the typed answer 'next'")
                    return
                }
                _ = chat.tap(.answer(quiz: current.id, question: i, option: 0))
                _ = chat.tap(.next(quiz: current.id, question: i))
            }
        }
        Issue.record("no typed-answer question dealt in 40 quizzes")
    }
}
