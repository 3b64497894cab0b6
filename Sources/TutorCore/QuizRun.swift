import Foundation

/// An open quiz: where the learner is, and what they answered. Survives restarts (stored).
public struct QuizRun: Codable, Equatable, Sendable {
    public enum Phase: String, Codable, Sendable { case asking, answered }

    public var isLessonCheck: Bool { mode.isLessonCheck }

    public var id: Int
    public var mode: QuizMode
    public var questionIDs: [String]
    public var index: Int
    /// Display order of the current question's answers, as indices into the bank's `answers`.
    public var order: [Int]
    public var phase: Phase
    public var answers: [GivenAnswer]
    public var startedAt: Date
    // Fields added after v1 are optional, so sessions stored by an older build still decode.
    /// Practice tests: the section (index into the state's format) of each question.
    public var sectionOfQuestion: [Int]?
    /// Practice tests reveal answers at the end, as the real test does, unless the learner asked otherwise.
    public var revealAtEnd: Bool?
    /// The state's time limit, running from `startedAt` (it keeps running while the learner is away).
    public var deadline: Date?
    /// Timed challenge: seconds per question, and when the current question was shown.
    public var secondsPerQuestion: Int?
    public var questionShownAt: Date?
    /// Lives left in a lives challenge.
    public var lives: Int?
    /// The learner's XP when the run began, for "+120 XP" at the end.
    public var xpAtStart: Int? = nil
    /// The learner's XP when the run was put aside (see `Reduction.park`): what is earned while it
    /// waits is not its own.
    public var xpWhenParked: Int? = nil
    /// A level reached during a practice test, announced with its results: mid-test it would
    /// say the answer just given was right (the test hides that until the end).
    public var heldLevelUp: Int? = nil
    /// Practice tests: right answers and answers, each weighted by how much it could not have been
    /// recognition of an answer shown shortly before (`Knowledge.evidenceWeight`).
    public var freshCorrect: Double? = nil
    public var freshTotal: Double? = nil
    /// Time spent answering, for the results' "⏱": each answer adds the time since the one before
    /// (or the start), at most `longestThinking`, so a test left for days and finished later
    /// doesn't report the days away as test time.
    public var activeSeconds: Double? = nil
    public var lastAnswerAt: Date? = nil
    public static let longestThinking: TimeInterval = 180

    /// Notes an answer given at `now` in the run's active time.
    mutating func noteAnswerTime(at now: Date) {
        let since = now.timeIntervalSince(lastAnswerAt ?? startedAt)
        activeSeconds = (activeSeconds ?? 0) + min(max(0, since), Self.longestThinking)
        lastAnswerAt = now
    }

    public init(
        id: Int, mode: QuizMode, questionIDs: [String], index: Int = 0, order: [Int] = [],
        phase: Phase = .asking, answers: [GivenAnswer] = [], startedAt: Date,
        sectionOfQuestion: [Int]? = nil, revealAtEnd: Bool? = nil, deadline: Date? = nil,
        secondsPerQuestion: Int? = nil, questionShownAt: Date? = nil
    ) {
        self.id = id
        self.mode = mode
        self.questionIDs = questionIDs
        self.index = index
        self.order = order
        self.phase = phase
        self.answers = answers
        self.startedAt = startedAt
        self.sectionOfQuestion = sectionOfQuestion
        self.revealAtEnd = revealAtEnd
        self.deadline = deadline
        self.secondsPerQuestion = secondsPerQuestion
        self.questionShownAt = questionShownAt
    }

    public var hidesAnswers: Bool { revealAtEnd == true }
    /// The timer that ends the current question of a timed challenge.
    public var timerKey: String { "tq\(id).\(index)" }
    /// The timer that ends a practice test at the state's time limit.
    public var deadlineKey: String { "td\(id)" }

    public var currentQuestionID: String { questionIDs[index] }
    public var isLastQuestion: Bool { index == questionIDs.count - 1 }
    /// The tag the runtime keeps the current question's message id under, to edit it later.
    public var questionTag: String { "q\(id).\(index)" }
}
