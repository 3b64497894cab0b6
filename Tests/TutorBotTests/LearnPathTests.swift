import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// The lesson path on the banks we ship, walked by a learner who knows nothing but what the
/// lessons teach: a new Ohio learner, 10 minutes a day.
@Suite struct LearnPathTests {
    let banks: Banks

    init() throws {
        let (banks, problems) = try BankFiles.load("\(repoRoot)/Banks")
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        self.banks = try #require(banks)
    }

    /// Reading a card takes a teen about 25 s, a check question about 15 s (the lesson format's
    /// 2-4 minutes a lesson).
    static let secondsPerCard = 25.0, secondsPerCheck = 15.0, minutesPerDay = 10.0

    @Test func aNewOhioLearnerWalksThePathInDaysAndThenPassesAPracticeTest() throws {
        var now = Date(timeIntervalSince1970: 1_796_000_000)
        var s = Dialogue.newChat(chatID: 31, sender: Sender(userID: 31, firstName: "Riley"), isGroup: false, now: now)
        var seed: UInt64 = 1
        func reduce(_ e: Event) -> [Effect] {
            seed += 1
            let (next, effects) = Dialogue.reduce(s, e, DialogueContext(banks: banks, now: now, seed: seed))
            s = next
            return effects
        }
        func tap(_ a: ButtonAction) -> [Effect] {
            reduce(.buttonTapped(callbackID: "cb\(seed)", action: a, messageID: 9))
        }
        _ = reduce(.commandSent(.start, payload: "OH"))
        #expect(s.learner.stateCode == "OH")

        var known = Set<String>()  // what the lessons have taught this learner
        var secondsToday = 0.0
        var days = 1
        var lessons = 0
        func spend(_ seconds: Double) {
            secondsToday += seconds
            if secondsToday >= Self.minutesPerDay * 60 {
                days += 1
                secondsToday = 0
                now = now.addingTimeInterval(86_400)
            }
        }
        /// Answers the open quiz: right where the lessons taught it, else a wrong option.
        func answerQuiz() {
            var guardSteps = 0
            while let quiz = s.session.quiz, guardSteps < 500 {
                guardSteps += 1
                let q = try! #require(banks.question(quiz.currentQuestionID))
                if quiz.phase == .answered {
                    _ = tap(.next(quiz: quiz.id, question: quiz.index))
                    continue
                }
                if q.kind == .fillIn {
                    _ = reduce(.textSent(known.contains(q.id) ? q.answers[0] : "no idea at all"))
                } else {
                    let option =
                        known.contains(q.id) ? q.correctAnswerIndex : (q.correctAnswerIndex + 1) % q.answers.count
                    _ = tap(.answer(quiz: quiz.id, question: quiz.index, option: option))
                }
                if case .lessonCheck = quiz.mode { spend(Self.secondsPerCheck) }
            }
        }

        while s.session.lesson != nil || lessons < 500 {
            _ = tap(.menu(.learn))
            guard let run = s.session.lesson, let lesson = banks.lesson(run.lessonID) else { break }
            for card in run.card..<lesson.cards.count {
                _ = tap(.nextLessonCard(seq: run.seq, card: card))
                spend(Self.secondsPerCard)
            }
            known.formUnion(lesson.teaches)
            answerQuiz()
            #expect(s.lessonsDone[lesson.id] != nil, "\(lesson.id) done")
            lessons += 1
        }
        let path = banks.lessonTopics.flatMap { banks.lessons(for: $0) } + banks.lessons(forState: "OH")
        #expect(
            lessons == path.count && path.allSatisfy { s.lessonsDone[$0.id] != nil }, "every lesson of the path, once")

        // Then a fixed practice test, answered from what the lessons taught and nothing else.
        _ = tap(.startTest(1))
        answerQuiz()
        let result = try #require(s.results.last)
        #expect(result.mode == .practiceTest(number: 1) && result.passed, "\(result.correct)/\(result.total)")
        print(
            "Ohio path: \(lessons) lessons, \(path.reduce(0) { $0 + $1.cards.count }) cards, \(days) days at 10 minutes a day; then practice test 1: \(result.correct)/\(result.total)"
        )
    }
}
