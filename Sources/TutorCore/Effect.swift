import Foundation

/// Which earlier message an edit applies to.
public enum MessageTarget: Equatable, Sendable {
    /// A message id we already know (a button press carries its message's id).
    case id(Int64)
    /// A message sent with this `Reply.tag`; the sender resolves it (it was sent earlier in the same chat's order).
    case tag(String)
}

/// A button's text, rendered from Prompts/ at the edge.
public enum ButtonLabel: Equatable, Sendable {
    case letter(String)
    case next, seeResults, home, quickQuiz, topics, progress, settings, help, about
    case reviewMissed(count: Int)
    case reviewMyMisses, tryAnother, changeState, otherState
    case state(name: String)
    /// "↩️ Keep Texas": out of the state picker, back to Settings.
    case keepState(name: String)
    case continueQuiz(number: Int, total: Int)
    case practiceTest, timedChallenge, randomTest, morePages
    /// "Test 2 ✅": a fixed practice test, with whether the learner's best try passed (nil: not taken).
    case testNumber(Int, passed: Bool?)
    case seeMisses(count: Int)
    case revealAnswers(on: Bool)
    case nudges(on: Bool)
    case nudgeTime(minute: Int, selected: Bool)
    case zone(String, selected: Bool)
    case deleteData, confirmDelete, keepData
    case flashcards(due: Int)
    case showAnswer
    /// A flashcard rating; `simple`: the two-button "Need practice" / "Knew it" wording.
    case rate(Rating, simple: Bool)
    case gallery, livesChallenge, previous, nextSign, quizMeOnThese
    case signGroup(SignGroup)
    case fourButtons(on: Bool)
    case topic(Topic)
    case yesState(name: String)
    case pickAnother
    case switchTo(name: String)
    case backToTest, doneForNow
    /// "Leave the Daily 5": another quiz was asked for while today's Daily 5 is open.
    case leaveDaily
    case messagesBackOn
    /// Home's lesson button: the next lesson ("📖 Learn: Road signs · lesson 2 of 5"), or the one open;
    /// `stateName`: a state's own lesson is labelled by its state ("Kentucky rules"), as the lesson itself is.
    case learn(topic: Topic, number: Int, of: Int, continuing: Bool, stateName: String? = nil)
    case nextCard
    case checkYourself(questions: Int)
    case testOut(needed: Int, of: Int)
    case nextLesson
    case quizTopic(Topic)
    /// A lesson in a topic's list, ✅ when done.
    case lesson(number: Int, title: String, done: Bool)
    case lessonsAllDone
    /// A topic on the Topics screen with its lessons done ("Road signs · 2/5", "✅ Parking").
    case topicProgress(Topic, done: Int, of: Int)
    case challengeFriend, shareChallenge, pickMyState, friends
    /// "⚔️ Challenge Maya back": a new challenge of one's own to send.
    case challengeBack(name: String)
    case challengeNamed(name: String)
    /// "⚔️ Play Maya's challenge": the link in the news that Maya challenged them back.
    case playChallenge(name: String)
    case removeFriend(name: String)
    /// The Remove confirmation: "✖ Yes, remove Jordan" / "Keep Jordan".
    case confirmUnfriend(name: String)
    case keepFriend(name: String)
    case daily(done: Bool)
    /// Today's Daily 5 once played: its score ("📅 Daily 5: 2/5"). A ✅ after a run left at 2 of 5
    /// read as "completed" to a play-tester.
    case dailyScore(score: Int, total: Int)
    case hideFromFriends(on: Bool)
    /// Under an answer to a typed question: "📖 Open the lesson", "✍️ Quiz me on this", "Or did you mean: …", 👍 / 👎.
    case openTheLesson, quizMeOnThis
    case didYouMean(String)
    case helpful(Bool)
}

public struct Button: Equatable, Sendable {
    public var label: ButtonLabel
    public var action: ButtonAction
    /// A link button (Telegram opens the URL); `action` is what a client without links does instead.
    public var url: String? = nil

    public init(_ label: ButtonLabel, _ action: ButtonAction) {
        self.label = label
        self.action = action
    }

    /// A button that opens `url` (a share sheet, a deep link).
    public static func link(_ label: ButtonLabel, _ url: String) -> Button {
        var b = Button(label, .menu(.home))
        b.url = url
        return b
    }
}

/// One outgoing message: what to say (a `Message`, rendered from Prompts/ at the edge), its
/// buttons, an optional sign picture, and a tag to find it again for an edit.
public struct Reply: Equatable, Sendable {
    public var message: Message
    public var buttons: [[Button]]
    public var picture: String?
    public var tag: String?
    /// A reminder or broadcast rather than a reply: queued behind replies to learners.
    public var bulk: Bool
    /// A chart picture sent before the message (practice-test scores over time).
    public var chart: ScoreChartSpec?

    public init(
        _ message: Message, buttons: [[Button]] = [], picture: String? = nil, tag: String? = nil, bulk: Bool = false,
        chart: ScoreChartSpec? = nil
    ) {
        self.message = message
        self.buttons = buttons
        self.picture = picture
        self.tag = tag
        self.bulk = bulk
        self.chart = chart
    }
}

/// What the progress chart shows: practice-test scores over time against the pass line.
public struct ScoreChartSpec: Codable, Equatable, Sendable {
    public struct Point: Codable, Equatable, Sendable {
        public var date: Date
        public var percent: Int
        public init(date: Date, percent: Int) {
            self.date = date
            self.percent = percent
        }
    }
    public var points: [Point]
    public var passPercent: Int
    public var learnerName: String
    public var stateName: String
    public var timeZone: String

    public init(points: [Point], passPercent: Int, learnerName: String, stateName: String, timeZone: String) {
        self.points = points
        self.passPercent = passPercent
        self.learnerName = learnerName
        self.stateName = stateName
        self.timeZone = timeZone
    }
}

/// An answer to log (the per-question model lives in `ChatState.progress`; this is the history).
public struct AnswerRecord: Equatable, Sendable {
    public var questionID: String
    public var correct: Bool
    public var quizID: Int
    public var answeredAt: Date
    public var localDay: LocalDay

    public init(questionID: String, correct: Bool, quizID: Int, answeredAt: Date, localDay: LocalDay) {
        self.questionID = questionID
        self.correct = correct
        self.quizID = quizID
        self.answeredAt = answeredAt
        self.localDay = localDay
    }
}

/// What the reducer asks the edges to do, as plain data so tests compare whole lists.
public enum Effect: Equatable, Sendable {
    case send(Reply)
    case edit(MessageTarget, Reply)
    /// Every button press is acknowledged; `toast` is a short popup line, nil for a silent ack.
    case answerButton(callbackID: String, toast: Notice?)
    case recordAnswer(AnswerRecord)
    /// Deliver `.timerFired(key)` to this chat at `at` (kept in the store: survives restarts).
    case setTimer(key: String, at: Date)
    case cancelTimer(key: String)
    /// "Delete my data", confirmed: erase every row about this learner.
    case eraseLearner
    /// Store a challenge this learner made (its link works for `Challenge.lifetime`).
    case createChallenge(Challenge)
    /// This learner played challenge `token` (once per friend).
    case recordChallengePlay(token: String, correct: [Bool])
    /// This learner and `chatID` are friends now (both sides).
    case befriend(Int64)
    /// This learner and `chatID` are friends no more (both sides).
    case unfriend(Int64)
    /// Today's daily challenge score, counted (anonymously) in the state's day.
    case recordDailyResult(stateCode: String, day: LocalDay, score: Int)
    /// The day's five as dealt, kept so a bank reload later that day deals the same five.
    case recordDailySet(stateCode: String, day: LocalDay, questionIDs: [String])
    /// A message to another chat (a challenger hears their friend played), sent as bulk; held
    /// until `heldUntil` (the end of their quiet hours) when set. See `Reduction.sendNews`.
    case notify(chatID: Int64, Reply, heldUntil: Date?)
    /// A typed question and the card that answered it (nil: declined), for the content writers'
    /// "most asked, unanswered" list; kept 14 days, erased with the learner.
    case recordAsk(AskRecord)
    /// 👍 / 👎 under an answer: on this chat's latest question answered with `ref`.
    case voteAsk(ref: String, helpful: Bool)
}

public struct AskRecord: Equatable, Sendable {
    public var text: String
    public var ref: String?
    public var askedAt: Date
    public init(text: String, ref: String?, askedAt: Date) {
        self.text = text
        self.ref = ref
        self.askedAt = askedAt
    }
}
