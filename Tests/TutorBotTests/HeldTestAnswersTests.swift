import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// Issue #43, item 1: "Answers are revealed at the end, just like test day" — and nothing of an
/// unfinished test reaches flashcards, review, due counts or the pass chance before its results.
@Suite struct HeldTestAnswersTests {
    let banks: Banks

    init() throws {
        let (banks, problems) = try BankFiles.load("\(repoRoot)/Banks")
        #expect(problems.isEmpty)
        self.banks = try #require(banks)
    }

    @Test func anUnfinishedTestLeaksNoAnswerAndItsResultsRecordThemAll() throws {
        let chat = TestChat(banks: banks, chatID: 41, name: "Ana")
        var s: ChatState {
            get { chat.state }
            set { chat.state = newValue }
        }
        func reduce(_ e: Event) -> [Effect] { chat.reduce(e) }
        func tap(_ a: ButtonAction) -> [Effect] { chat.tap(a) }
        _ = reduce(.commandSent(.start, payload: "TX"))
        #expect(s.learner.revealAnswersAsYouGo == false)
        _ = tap(.startTest(1))
        let quiz = try #require(s.session.quiz)
        #expect(quiz.hidesAnswers)
        for i in 0..<10 {
            let q = try #require(banks.question(s.session.quiz!.currentQuestionID))
            let option = i % 3 == 0 ? (q.correctAnswerIndex + 1) % q.answers.count : q.correctAnswerIndex
            _ = tap(.answer(quiz: quiz.id, question: i, option: option))
            _ = tap(.next(quiz: quiz.id, question: i))
        }
        #expect(s.session.quiz?.answers.count == 10)
        // The learner leaves: home, then flashcards and review, the next day.
        chat.now += 86_400
        let home = tap(.menu(.home))
        let homeReply = try #require(
            home.compactMap { e -> Reply? in
                if case .send(let r) = e, case .home = r.message { r } else { nil }
            }.first)
        guard case .home(let homeView) = homeReply.message else { return }
        #expect(
            homeView.missedCount == 0 && homeView.seenCount == 0,
            "\(homeView.missedCount) to review, \(homeView.seenCount) seen")
        for button in homeReply.buttons.flatMap({ $0 }) {
            if case .flashcards(let due) = button.label {
                #expect(due == 0, "flashcards due from the unfinished test: \(due)")
            }
        }
        #expect(s.cards.isEmpty && s.progress.isEmpty, "nothing of the test is in the learner model yet")
        _ = tap(.menu(.flashcards))
        #expect(s.session.cards == nil || s.session.cards!.questionIDs.allSatisfy { !quiz.questionIDs.contains($0) })

        // Back to the test and to its end: the results record every answer.
        _ = tap(.startTest(1))
        var index = s.session.quiz!.index
        while let open = s.session.quiz, open.id == quiz.id {
            let q = try #require(banks.question(open.currentQuestionID))
            _ = tap(.answer(quiz: open.id, question: index, option: q.correctAnswerIndex))
            _ = tap(.next(quiz: open.id, question: index))
            index += 1
            if index > 40 { break }
        }
        #expect(s.results.last?.mode == .practiceTest(number: 1))
        #expect(s.progress.count == quiz.questionIDs.count, "every answer of the test recorded at its results")
        #expect(s.cards.count >= 3, "its misses became flashcards")
    }

    /// Issue #43, item 2: after "idk" and a resume, the question read "⏰ Time's up" in a test with
    /// no timer, without its sign picture, and labelled with its topic instead of its section.
    @Test func aSkippedQuestionResumesAsSkippedWithItsPictureAndSection() throws {
        let chat = TestChat(banks: banks, chatID: 42, name: "Jo")
        var s: ChatState {
            get { chat.state }
            set { chat.state = newValue }
        }
        func reduce(_ e: Event) -> [Effect] { chat.reduce(e) }
        func tap(_ a: ButtonAction) -> [Effect] { chat.tap(a) }
        _ = reduce(.commandSent(.start, payload: "NY"))
        s.learner.revealAnswersAsYouGo = true
        _ = tap(.startTest(1))
        let quiz = try #require(s.session.quiz)
        #expect(!quiz.hidesAnswers && quiz.secondsPerQuestion == nil)
        // Answer up to a sign question (the signs section comes first), then "idk" on it.
        var i = 0
        while let q = banks.question(s.session.quiz!.currentQuestionID), q.imageAssetName == nil || i < 1 {
            _ = tap(.answer(quiz: quiz.id, question: i, option: q.correctAnswerIndex))
            _ = tap(.next(quiz: quiz.id, question: i))
            i += 1
            if i >= 20 {
                Issue.record("no sign question in NY test 1")
                return
            }
        }
        let idk = reduce(.textSent("idk"))
        #expect(
            idk.contains {
                if case .edit(_, let r) = $0, case .answered(let v) = r.message { v.skipped } else { false }
            })
        _ = tap(.menu(.home))
        let resumed = tap(.startTest(1))
        let reply = try #require(
            resumed.compactMap { e -> Reply? in
                if case .send(let r) = e, case .answered = r.message { r } else { nil }
            }.first)
        guard case .answered(let view) = reply.message else { return }
        #expect(!view.timedOut && view.skipped, "a skip is not a timeout")
        #expect(reply.picture != nil, "the sign comes back with its question")
        #expect(view.question.sectionName == "Road signs", "\(view.question.sectionName ?? "no section")")
    }

    /// Issue #43, item 5: a test left and finished days later reported the days away as test
    /// time; the "⏱" is the time spent answering (each gap counted up to 3 minutes).
    @Test func aTestFinishedDaysLaterReportsTheTimeSpentAnswering() throws {
        let chat = TestChat(banks: banks, chatID: 43, name: "Lu")
        var s: ChatState { chat.state }
        _ = chat.reduce(.commandSent(.start, payload: "TX"))
        _ = chat.tap(.startTest(1))
        let quiz = try #require(s.session.quiz)
        var index = 0
        var results: ResultsView?
        while let open = s.session.quiz, open.id == quiz.id, index < 60 {
            if index == 10 {
                _ = chat.tap(.menu(.home))
                chat.now += 3 * 86_400
                _ = chat.tap(.startTest(1))
            }
            let q = try #require(banks.question(open.currentQuestionID))
            let answered = chat.tap(.answer(quiz: open.id, question: index, option: q.correctAnswerIndex))
            let next = s.session.quiz?.id == quiz.id ? chat.tap(.next(quiz: open.id, question: index)) : []
            for effect in answered + next {
                if case .send(let r) = effect, case .results(let v) = r.message { results = v }
                if case .edit(_, let r) = effect, case .results(let v) = r.message { results = v }
            }
            index += 1
        }
        let view = try #require(
            results, "the test reached its results (\(index) taps, \(s.session.screen), \(s.results.count))")
        // 30 answers 40 s apart, and the return after three days counted as at most 3 minutes.
        #expect(view.durationSeconds < 30 * 40 + 240, "\(view.durationSeconds) s")
        #expect(view.durationSeconds >= 25 * 40, "\(view.durationSeconds) s")
    }
}

/// One learner's chat driven through the reducer on the shipped banks, 20 s between events.
final class TestChat {
    let banks: Banks
    var now = Date(timeIntervalSince1970: 1_796_000_000)
    var state: ChatState
    var seed: UInt64 = 1

    init(banks: Banks, chatID: Int64, name: String) {
        self.banks = banks
        state = Dialogue.newChat(
            chatID: chatID, sender: Sender(userID: chatID, firstName: name), isGroup: false, now: now)
    }

    func reduce(_ e: Event) -> [Effect] {
        seed += 1
        now += 20
        let effects: [Effect]
        (state, effects) = Dialogue.reduce(state, e, DialogueContext(banks: banks, now: now, seed: seed))
        return effects
    }

    func tap(_ a: ButtonAction) -> [Effect] { reduce(.buttonTapped(callbackID: "cb\(seed)", action: a, messageID: 9)) }
}
