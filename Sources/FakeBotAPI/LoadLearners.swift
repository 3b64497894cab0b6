import Foundation

/// Simulated learners for load tests: each runs /start → their state → ⚡ Quick quiz → 10 questions
/// (tap an option, tap Next) → results, reacting the moment the bot's message arrives (closed loop,
/// no think time), as the issue's independent harness did. They drive the real bot through the
/// fake Bot API; the report says who finished, how long replies and tap answers took, and what
/// went wrong (a question sent twice, a learner left waiting).
public final class LoadLearners: @unchecked Sendable {
    // @unchecked Sendable: `learners` is only touched under its Locked.

    public enum Phase: String, Sendable { case started, statePicked, quiz, done }

    struct Learner {
        var phase = Phase.started
        var answeredMessages: Set<Int64> = []
        var nextedMessages: Set<Int64> = []
        var questionsShown: [Int: Int] = [:]
        var taps = 0
        var lastText = ""
        var finishedAt: Date?
    }

    public struct Report: Sendable {
        public var learners = 0
        public var finished = 0
        public var seconds = 0.0
        public var updates = 0
        public var firstReply: [Double] = []
        public var tapAnswer: [Double] = []
        public var unansweredTaps = 0
        public var lateTapAnswers = 0
        public var tapsAnsweredTwice = 0
        /// Questions that reached a learner twice, or never (a finished quiz must show Q1…Q10 once each).
        public var doubledQuestions = 0
        public var missingQuestions = 0
        public var rateLimited = 0
        public var earlyRetries = 0
        /// Messages sent inside an overall 429's wait (requests already in flight aside).
        public var sendsInsideGlobalWait = 0
        public var rejections: [String] = []
        /// Learners that never finished, with where they stopped (for a failing test's message).
        public var stuck: [String] = []

        public var updatesPerSecond: Double { seconds > 0 ? Double(updates) / seconds : 0 }

        public static func percentile(_ values: [Double], _ p: Double) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
        }

        /// One line for the bench table and a test's failure message.
        public var summary: String {
            func ms(_ v: [Double], _ p: Double) -> String { String(format: "%.0f", Self.percentile(v, p) * 1000) }
            return
                "\(finished)/\(learners) finished in \(String(format: "%.1f", seconds)) s, "
                + "\(String(format: "%.0f", updatesPerSecond)) updates/s; "
                + "first reply p50/p95/p99 \(ms(firstReply, 0.5))/\(ms(firstReply, 0.95))/\(ms(firstReply, 0.99)) ms; "
                + "tap answer p50/p95/p99 \(ms(tapAnswer, 0.5))/\(ms(tapAnswer, 0.95))/\(ms(tapAnswer, 0.99)) ms; "
                + "unanswered taps \(unansweredTaps), late \(lateTapAnswers), doubled questions \(doubledQuestions), "
                + "missing \(missingQuestions), "
                    + """
                    429s \(rateLimited), early retries \(earlyRetries), sent inside an overall wait \
                    \(sendsInsideGlobalWait)
                    """
        }
    }

    let fake: FakeBotAPI
    let chats: [Int64]
    let stateName: String
    private let learners: Locked<[Int64: Learner]>
    private var started = Date()

    /// `/start <startPayload>` instead of `/start` (a friend challenge's link: the ten questions
    /// start at once, and the side-by-side result ends the run).
    let startPayload: String?

    public init(
        fake: FakeBotAPI, count: Int, firstChat: Int64 = 700_000, stateName: String = "Texas",
        startPayload: String? = nil
    ) {
        self.fake = fake
        self.startPayload = startPayload
        self.chats = (0..<Int64(count)).map { firstChat + $0 }
        self.stateName = stateName
        self.learners = Locked(Dictionary(uniqueKeysWithValues: chats.map { ($0, Learner()) }))
    }

    /// Every learner sends /start at once.
    public func start() {
        started = Date()
        fake.observe { [weak self] sent, isEdit in self?.react(sent, isEdit: isEdit) }
        if startPayload != nil { learners.withLock { all in for k in all.keys { all[k]!.phase = .quiz } } }
        for chat in chats { fake.say(startPayload.map { "/start \($0)" } ?? "/start", chat: chat) }
    }

    /// Waits until every learner finished or `timeout` passed, then reports.
    public func finish(timeout: TimeInterval) -> Report {
        _ = fake.wait(timeout: timeout) { learners.withLock { $0.values.allSatisfy { $0.phase == .done } } }
        // Give the last tap answers a moment: they are sent beside the results, not before them.
        _ = fake.wait(timeout: 5) { fake.unansweredCallbacks.isEmpty }
        return report()
    }

    public func report() -> Report {
        var r = Report()
        r.learners = chats.count
        let all = learners.withLock { $0 }
        r.finished = all.values.filter { $0.phase == .done }.count
        let last = all.values.compactMap(\.finishedAt).max() ?? Date()
        r.seconds = last.timeIntervalSince(started)
        r.updates = all.values.reduce(0) { $0 + $1.taps } + chats.count * 2
        for (chat, l) in all {
            r.doubledQuestions += l.questionsShown.values.filter { $0 > 1 }.count
            if l.phase == .done { r.missingQuestions += (1...10).filter { l.questionsShown[$0] == nil }.count }
            if l.phase != .done && r.stuck.count < 5 {
                r.stuck.append("chat \(chat) \(l.phase.rawValue): \(l.lastText.prefix(80))")
            }
        }
        fake.state.withLock { s in
            r.firstReply = s.firstReplyLatencies
            r.tapAnswer = s.tapLatencies
            r.lateTapAnswers = s.lateAnswers
            r.rateLimited = s.rateLimited
            r.earlyRetries = s.earlyRetries
            r.sendsInsideGlobalWait = s.sendsInsideGlobalWait
            r.rejections = s.rejections
        }
        r.unansweredTaps = fake.unansweredCallbacks.count
        r.tapsAnsweredTwice = fake.callbacksAnsweredTwice.count
        return r
    }

    private static let questionNumber = try! NSRegularExpression(pattern: #"Q(\d+)/10\b"#)

    /// A learner reads the bot's latest message and acts at once.
    private func react(_ sent: FakeBotAPI.Sent, isEdit: Bool) {
        let chat = sent.chatID
        let buttons = sent.buttons.joined()
        // `action` is decided under the lock (so two messages arriving together never both act)
        // and performed after it.
        let action: (() -> Void)? = learners.withLock { all -> (() -> Void)? in
            guard var l = all[chat] else { return nil }
            defer { all[chat] = l }
            l.lastText = sent.text
            let question = Self.questionNumber.firstMatch(
                in: sent.text, range: NSRange(sent.text.startIndex..., in: sent.text)
            )
            .flatMap { Range($0.range(at: 1), in: sent.text) }.flatMap { Int(sent.text[$0]) }
            if !isEdit, let question, l.phase == .quiz { l.questionsShown[question, default: 0] += 1 }
            switch l.phase {
            case .started where sent.text.contains("Which state"):
                l.phase = .statePicked
                return { [fake, stateName] in fake.say(stateName, chat: chat) }
            case .started, .statePicked:
                // A returning learner's /start shows their home screen at once.
                guard let quiz = buttons.first(where: { $0.data.hasSuffix("m:qq") }) else { return nil }
                l.phase = .quiz
                l.taps += 1
                return { [fake] in fake.pressData(quiz.data, messageID: sent.messageID, chat: chat) }
            case .quiz:
                if sent.text.contains("Quick quiz done") || (startPayload != nil && sent.text.contains("· you ")) {
                    l.phase = .done
                    l.finishedAt = Date()
                    return nil
                }
                let options = buttons.filter { $0.data.dropFirst().hasPrefix("a:") }
                if !options.isEmpty, !l.answeredMessages.contains(sent.messageID) {
                    l.answeredMessages.insert(sent.messageID)
                    l.taps += 1
                    let pick = options[Int(UInt64(bitPattern: chat &* 31 &+ Int64(l.taps)) % UInt64(options.count))]
                    return { [fake] in fake.pressData(pick.data, messageID: sent.messageID, chat: chat) }
                }
                if let next = buttons.first(where: { $0.data.dropFirst().hasPrefix("n:") }),
                    !l.nextedMessages.contains(sent.messageID)
                {
                    l.nextedMessages.insert(sent.messageID)
                    l.taps += 1
                    return { [fake] in fake.pressData(next.data, messageID: sent.messageID, chat: chat) }
                }
                if buttons.isEmpty, !isEdit, question != nil, !l.answeredMessages.contains(sent.messageID) {
                    // A typed question: a teen who doesn't know says so.
                    l.answeredMessages.insert(sent.messageID)
                    l.taps += 1
                    return { [fake] in fake.say("idk", chat: chat) }
                }
                return nil
            default:
                return nil
            }
        }
        action?()
    }
}
