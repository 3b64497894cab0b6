import Foundation

/// The kinds of question runs a learner can start.
public enum QuizMode: Codable, Equatable, Sendable {
    case quick
    case topic(Topic)
    case review
    /// A practice test shaped like the state's real one: 1-4 are fixed, 0 is a random draw.
    case practiceTest(number: Int)
    /// Think Fast: a visible time budget per question; no answer in time is a miss.
    case timedChallenge
    /// Three lives: each miss costs one; the run ends when they are gone.
    case livesChallenge
    /// A drill on the signs of one gallery group ("Quiz me on these").
    case signGroup(SignGroup)
    /// A lesson's check questions, right after its cards (or first, to test out of it).
    case lessonCheck(String)
    /// A friend challenge (its token): ten universal questions, the same for everyone who plays it.
    case challenge(String)
    /// The daily challenge of the state's day (its ordinal).
    case daily(Int)
    /// "✍️ Quiz me on this" under an answer to a typed question: 2-3 questions on that card (`AskRef.raw`).
    case asked(String)

    public var isPracticeTest: Bool {
        if case .practiceTest = self { return true }
        return false
    }
    public var isDaily: Bool {
        if case .daily = self { return true }
        return false
    }
    public var isLessonCheck: Bool {
        if case .lessonCheck = self { return true }
        return false
    }
    /// A practice quiz the learner chose (not a test, a check, a challenge or the Daily 5), and
    /// with no per-question timer: it can wait behind a challenge or a Daily 5 and resume as it was.
    public var canWaitBehindARun: Bool {
        switch self {
        case .quick, .topic, .review, .livesChallenge, .signGroup, .asked: return true
        case .practiceTest, .timedChallenge, .lessonCheck, .challenge, .daily: return false
        }
    }
}

public struct GivenAnswer: Codable, Equatable, Sendable {
    public var questionID: String
    public var topic: Topic
    /// Index into the bank's `answers`; -1: no answer in time; -2: a typed answer (see `typed`).
    public var chosen: Int
    public var correct: Bool
    public var typed: String? = nil

    /// Think Fast: seconds from showing the question to the answer.
    public var seconds: Double? = nil

    public init(questionID: String, topic: Topic, chosen: Int, correct: Bool, typed: String? = nil) {
        self.questionID = questionID
        self.topic = topic
        self.chosen = chosen
        self.correct = correct
        self.typed = typed
    }
}

public struct TopicScore: Codable, Equatable, Sendable {
    public var topic: Topic
    public var correct: Int
    public var total: Int

    public init(topic: Topic, correct: Int, total: Int) {
        self.topic = topic
        self.correct = correct
        self.total = total
    }
}

/// A finished quiz, kept for history and the progress screen.
public struct QuizResult: Codable, Equatable, Sendable {
    public var quizID: Int
    public var mode: QuizMode
    public var stateCode: String?
    public var correct: Int
    public var total: Int
    public var passPercent: Int?
    public var startedAt: Date
    public var finishedAt: Date
    public var byTopic: [TopicScore]
    public var missedIDs: [String]
    /// Practice tests: scored by the state's rules, section by section.
    public var exam: ExamOutcome?
    /// The time limit ran out before every question was answered.
    public var timedOut: Bool?
    /// Timed out: how many questions were never answered (a test left open for days reads
    /// "44 of 50 unanswered", not just 1/50).
    public var unanswered: Int? = nil
    /// What the learner answered to each missed question (bank answer index; -1 no answer, -2 typed).
    public var missedAnswers: [String: Int]? = nil
    public var missedTyped: [String: String]? = nil
    /// Think Fast: mean seconds per answer.
    public var averageSeconds: Double? = nil
    /// Practice tests: the right answers and answers that were not recognition of answers shown
    /// shortly before, weighted (see `QuizRun.freshCorrect`); nil for results stored before them.
    public var freshCorrect: Double? = nil
    public var freshTotal: Double? = nil
    /// Practice tests: the knowledge model's expected accuracy on a test question when the test
    /// ended (its answers counted). The score is carried forward as its gap from this, so it fades
    /// (or grows) with what the model says the learner knows now (`Readiness.TestEvidence`).
    public var modelAccuracy: Double? = nil
    /// Fixed practice tests: taken before (its questions and answers seen), recorded when it ends:
    /// only the latest results are kept, and once the first try is gone a retake would otherwise
    /// read as a first try. nil: a random test, or a result stored before this was recorded.
    public var retake: Bool? = nil

    public init(
        quizID: Int, mode: QuizMode, stateCode: String?, correct: Int, total: Int, passPercent: Int?,
        startedAt: Date, finishedAt: Date, byTopic: [TopicScore], missedIDs: [String],
        exam: ExamOutcome? = nil, timedOut: Bool? = nil
    ) {
        self.quizID = quizID
        self.mode = mode
        self.stateCode = stateCode
        self.correct = correct
        self.total = total
        self.passPercent = passPercent
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.byTopic = byTopic
        self.missedIDs = missedIDs
        self.exam = exam
        self.timedOut = timedOut
    }

    /// A practice test taken fresh: a random draw, or a fixed test's recorded first try.
    public var isFirstTryTest: Bool {
        guard case .practiceTest(let n) = mode, timedOut != true else { return false }
        return n == 0 || retake == false
    }

    public var percent: Int { Self.percent(correct, of: total) }
    public static func percent(_ correct: Int, of total: Int) -> Int {
        total == 0 ? 0 : Int((Double(correct) * 100 / Double(total)).rounded())
    }
    public var passed: Bool { exam?.passed ?? passPercent.map { percent >= $0 } ?? false }
    /// Passed with room to spare, for "Ready to test": at least the pass mark plus 10 points
    /// (a learner who scrapes through by one question is one bad day from failing).
    public var passedWithMargin: Bool {
        guard let exam, exam.passed, exam.total > 0 else { return false }
        let markPercent = Double(exam.needed) * 100 / Double(exam.total)
        return Double(exam.correct) * 100 / Double(exam.total) >= markPercent + Readiness.readyMarginPoints
    }
}
