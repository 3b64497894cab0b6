import Foundation

/// The answer to a typed question: the bank's own text, quoted, and where it comes from
/// ("📘 Texas Driver Handbook — Texas rules", or a topic every state's handbook teaches).
public struct AskAnswerView: Equatable, Sendable {
    public enum Body: Equatable, Sendable {
        case card(title: String, text: String)
        case question(question: String, answer: String, explanation: String)
        case sign(SignInfo)
        case state(StateCardView)
    }
    public var body: Body
    public var topic: Topic
    /// The state's handbook when the answer is a state's own rule; nil: the same in every state.
    public var handbook: String?
    /// The lesson it is from, if any.
    public var section: String?
    /// The question named a state other than the learner's: the answer says whose rule it is.
    public var otherState: String?
    /// The state's test card answers a question it doesn't cover (taking it online, what to
    /// bring, retakes): the answer says so before the card, rather than pass it off as the answer.
    public var beyondTheCard = false
}

public struct AskDeclinedView: Equatable, Sendable {
    public var topics: [Topic]
}

/// One card of a lesson: "📖 Road signs · lesson 2 of 5 — Shapes and colours", the card, "2/4".
public struct LessonCardView: Equatable, Sendable {
    public var topic: Topic
    public var lessonNumber: Int
    public var lessonCount: Int
    public var title: String
    public var text: String
    public var cardNumber: Int
    public var cardCount: Int
    /// The state's own rules: its name ("Ohio's rules") rather than the topic's.
    public var stateName: String? = nil
}

/// The end of a lesson's check questions.
public struct LessonDoneView: Equatable, Sendable {
    public var title: String
    public var correct: Int
    public var total: Int
    /// Tested out: the cards were skipped; `finished` says whether the checks were enough.
    public var testedOut: Bool
    public var finished: Bool
    public var needed: Int
    public var nextTitle: String?
    /// The next lesson is this topic's (the learner picked the topic), not the path's next, which
    /// Home offers: said as "Next in this topic", so the two labels don't seem to disagree.
    public var nextInTopic: Bool = false
    public var lessonsDone: Int
    public var lessonsTotal: Int
    public var reward: SessionReward? = nil
    /// After a test-out that fell short: how many of `correct` came after reading the cards.
    public var rightAfterReading: Int? = nil
}

/// A topic's lessons (their buttons carry the titles and ✅).
public struct TopicLessonsView: Equatable, Sendable {
    public var topic: Topic
    public var done: Int
    public var total: Int
    public var stateName: String? = nil
}
