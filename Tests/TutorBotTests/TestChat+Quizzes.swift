import Foundation

@testable import TutorBot
@testable import TutorCore

extension TestChat {
    /// A quick quiz with every question answered wrong (its misses become flashcards and review);
    /// the questions it asked.
    @discardableResult
    func missAQuickQuiz() -> [String] {
        _ = tap(.menu(.quickQuiz))
        var asked: [String] = []
        for i in 0..<10 {
            guard let quiz = state.session.quiz, let q = banks.question(quiz.currentQuestionID) else { break }
            asked.append(q.id)
            _ = tap(.answer(quiz: quiz.id, question: i, option: (q.correctAnswerIndex + 1) % q.answers.count))
            _ = tap(.next(quiz: quiz.id, question: i))
        }
        return asked
    }
}
