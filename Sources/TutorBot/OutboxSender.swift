import Foundation
import Logging
import TelegramAPI
import TutorCore
import TutorStore

/// A token bucket for the global message rate; callers wait their turn (reservations may go
/// negative, so waiting callers are served in order without polling).
actor RateLimiter {
    let rate: Double
    let burst: Double
    var tokens: Double
    var last: ContinuousClock.Instant

    init(perSecond rate: Double, burst: Double? = nil) {
        self.rate = max(rate, 0.1)
        self.burst = burst ?? max(1, rate)
        self.tokens = self.burst
        self.last = .now
    }

    func acquire() async {
        let now = ContinuousClock.now
        tokens = min(burst, tokens + (now - last).inSeconds * rate)
        last = now
        tokens -= 1
        if tokens < 0 {
            try? await Task.sleep(for: .seconds(-tokens / rate))
        }
    }
}

/// Delivers the outbox: strictly in order within a chat, concurrently across chats (one slow
/// chat never holds up another), under one global rate, honouring 429/5xx/403.
public actor OutboxSender {
    let api: BotAPI
    let store: TutorStore
    let clock: BotClock
    let banksDirectory: String
    let limiter: RateLimiter
    let logger: Logger
    var inFlight: Set<Int64> = []
    /// Tap answers being sent (by outbox id): they skip the chat queues entirely.
    var tapsInFlight: Set<Int64> = []
    /// Set when the run loop ends: chats being worked on finish their current request and stop.
    var stopped = false
    var blockedHandler: (@Sendable (Int64) -> Void)?
    var wakeup: CheckedContinuation<Void, Never>?
    var wokenEarly = false
    var sleepGeneration = 0
    /// Per-chat pacing: about one message a second, with short bursts (an answer's edit plus the
    /// next question) let through, as Telegram does.
    var chatPace: [Int64: (tokens: Double, at: ContinuousClock.Instant)] = [:]
    let chatRate: Double
    static let chatBurst = 3.0

    /// How long this chat must wait before its next message (and takes the token).
    func chatDelay(_ chatID: Int64) -> Duration {
        let now = ContinuousClock.now
        var pace = chatPace[chatID] ?? (Self.chatBurst, now)
        pace.tokens = min(Self.chatBurst, pace.tokens + (now - pace.at).inSeconds * chatRate)
        pace.at = now
        pace.tokens -= 1
        chatPace[chatID] = pace
        if chatPace.count > 50_000 { chatPace = chatPace.filter { $0.value.tokens < Self.chatBurst - 1 } }
        return pace.tokens >= 0 ? .zero : .seconds(-pace.tokens / chatRate)
    }

    /// Retries of a transient failure before the row is given up as failed.
    static let maxAttempts = 8
    static let concurrentChats = 256
    static let concurrentTaps = 256
    /// Bulk needs few chats at once to fill its budget (25/s at ~50 ms a request); hundreds of
    /// waiters would wake late on a busy machine and bunch up past Telegram's 30/s.
    static let concurrentBulkChats = 8
    var bulkInFlight: Set<Int64> = []

    init(api: BotAPI, store: TutorStore, clock: BotClock, banksDirectory: String, messagesPerSecond: Double,
         perChatPerSecond: Double = 1, logger: Logger) {
        self.api = api; self.store = store; self.clock = clock; self.banksDirectory = banksDirectory
        self.chatRate = max(perChatPerSecond, 0.1)
        // No burst: a steady pace keeps every one-second window under Telegram's ~30 messages.
        self.limiter = RateLimiter(perSecond: messagesPerSecond, burst: 1)
        self.logger = logger
    }

    /// Called when a learner turns out to have blocked the bot (the runtime drops its cached chat).
    public func onBlocked(_ handler: @escaping @Sendable (Int64) -> Void) { blockedHandler = handler }

    /// New rows were committed: look now rather than at the next timeout.
    public func wake() {
        if let w = wakeup { wakeup = nil; w.resume() } else { wokenEarly = true }
    }

    public func run() async {
        stopped = false
        while !Task.isCancelled && !stopped {
            var next: TimeInterval = 1
            do {
                // Taps first: an answer to a button is never behind anyone's messages.
                for tap in try store.pendingTaps(limit: Self.concurrentTaps - tapsInFlight.count, now: clock.now(), excluding: tapsInFlight) {
                    tapsInFlight.insert(tap.id)
                    Task { await self.deliverTap(tap) }
                }
                let heads = try store.pendingHeads(limit: Self.concurrentChats - inFlight.count, now: clock.now(), excluding: inFlight)
                for item in heads {
                    if item.priority >= OutboxItem.bulkPriority {
                        guard bulkInFlight.count < Self.concurrentBulkChats else { continue }
                        bulkInFlight.insert(item.chatID)
                    }
                    inFlight.insert(item.chatID)
                    Task { await self.deliverChat(startingWith: item) }
                }
                if let due = try store.nextDue() { next = min(1, max(0.01, due.timeIntervalSince(clock.now()))) }
            } catch {
                logger.error("outbox read failed: \(error)")
            }
            await sleep(seconds: next)
        }
    }

    /// Stops taking new rows and waits (a few seconds at most) for requests in flight, so a
    /// stopped bot never overlaps with the next one.
    public func stop() async {
        stopped = true
        wake()
        let deadline = Date().addingTimeInterval(5)
        while !inFlight.isEmpty && Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
    }

    /// Waits until the outbox is empty (or `timeout` passes): used before a console chat exits.
    public func drain(timeout: TimeInterval) async {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try? store.pendingCount()) == 0 && inFlight.isEmpty { return }
            wake()
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private func sleep(seconds: TimeInterval) async {
        if wokenEarly { wokenEarly = false; return }
        sleepGeneration += 1
        let generation = sleepGeneration
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            wakeup = c
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                self.timeout(generation)
            }
        }
    }

    private func timeout(_ generation: Int) {
        guard generation == sleepGeneration, let w = wakeup else { return }
        wakeup = nil
        w.resume()
    }

    private func deliverTap(_ item: OutboxItem) async {
        _ = await deliver(item)
        tapsInFlight.remove(item.id)
    }

    /// Sends one chat's due rows one after another, then frees the chat for the main loop.
    private func deliverChat(startingWith first: OutboxItem) async {
        var item: OutboxItem? = first
        while let current = item, !stopped {
            let delivered = await deliver(current)
            item = delivered ? (try? store.nextPending(chatID: current.chatID, now: clock.now())) ?? nil : nil
        }
        inFlight.remove(first.chatID)
        bulkInFlight.remove(first.chatID)
        wake()
    }

    /// Returns true when the chat may go on to its next row (sent, or given up for good).
    private func deliver(_ item: OutboxItem) async -> Bool {
        let meta: Logger.Metadata = ["chat_id": "\(item.chatID)", "method": "\(item.method)", "outbox_id": "\(item.id)"]
        do {
            // Replies are paced per chat as Telegram requires; only bulk (reminders, broadcasts)
            // also takes the global budget, so replies never queue behind it. Taps take neither.
            if item.priority >= 0 {
                let wait = chatDelay(item.chatID)
                if wait > .zero { try? await Task.sleep(for: wait) }
            }
            if item.priority >= OutboxItem.bulkPriority { await limiter.acquire() }
            let messageID = try await send(item)
            try store.markSent(item, messageID: messageID)
            return true
        } catch let error as BotAPIError {
            switch error {
            case .retryAfter(let seconds):
                logger.warning("429: waiting \(seconds) s", metadata: meta)
                try? store.retryLater(item, until: clock.now().addingTimeInterval(TimeInterval(seconds)), error: error.description)
                return false
            case .blocked:
                logger.info("learner blocked the bot; dropping their queue", metadata: meta)
                try? store.markBlocked(chatID: item.chatID)
                blockedHandler?(item.chatID)
                return false
            case _ where BotAPI.isNotModified(error):
                try? store.markSent(item, messageID: nil)
                return true
            case _ where error.isTransient && item.attempts + 1 < Self.maxAttempts:
                let delay = min(60, 0.5 * pow(2, Double(item.attempts)))
                logger.warning("\(error); retrying in \(delay) s", metadata: meta)
                try? store.retryLater(item, until: clock.now().addingTimeInterval(delay), error: error.description)
                return false
            default:
                logger.error("giving up on a message: \(error)", metadata: meta)
                try? store.markFailed(item, error: error.description)
                return true
            }
        } catch {
            logger.error("giving up on a message: \(error)", metadata: meta)
            try? store.markFailed(item, error: "\(error)")
            return true
        }
    }

    /// Performs the request; returns the message id Telegram gave back, if any.
    private func send(_ item: OutboxItem) async throws -> Int64? {
        switch item.method {
        case "sendPhoto" where item.picture == OutboxRenderer.chartPicture:
            let spec = try JSONDecoder().decode(ScoreChartSpec.self, from: item.body)
            guard let png = ScoreChart.png(points: spec.points.map { ScoreChart.Point(date: $0.date, percent: $0.percent) },
                                           passPercent: spec.passPercent, title: spec.learnerName,
                                           timeZone: TimeZone(identifier: spec.timeZone) ?? .gmt) else {
                throw SendError.chartFailed
            }
            return try await api.sendPhoto(chatID: item.chatID, png: png, filename: "progress.png").messageID
        case "sendPhoto":
            guard let picture = item.picture else { return try await plain(item) }
            if let fileID = try store.pictureFileID(picture) {
                return try await api.sendPhoto(SendPhotoRequest(chatID: item.chatID, photo: fileID)).messageID
            }
            let path = "\(banksDirectory)/signs/\(picture).png"
            guard let png = FileManager.default.contents(atPath: path) else { throw SendError.missingPicture(path) }
            let message = try await api.sendPhoto(chatID: item.chatID, png: png, filename: "\(picture).png")
            if let fileID = message.photo?.max(by: { ($0.width ?? 0) < ($1.width ?? 0) })?.fileID {
                try store.savePictureFileID(picture, fileID: fileID)
            }
            return message.messageID
        case "editMessageText":
            var request = try JSONDecoder().decode(EditMessageTextRequest.self, from: item.body)
            if let tag = item.editTag {
                guard let id = try store.messageID(chatID: item.chatID, tag: tag) else {
                    // The message to edit never arrived (it failed for good): say it afresh instead.
                    let markup = request.replyMarkup?.inlineKeyboard.isEmpty == false ? request.replyMarkup : nil
                    return try await api.sendMessage(SendMessageRequest(chatID: item.chatID, text: request.text, replyMarkup: markup)).messageID
                }
                request.messageID = id
            }
            try await api.editMessageText(request)
            return request.messageID
        default:
            return try await plain(item)
        }
    }

    private func plain(_ item: OutboxItem) async throws -> Int64? {
        try await api.call(item.method, .json(item.body), as: SentResult.self).messageID
    }
}

enum SendError: Error, CustomStringConvertible {
    case missingPicture(String)
    case chartFailed
    var description: String {
        switch self {
        case .missingPicture(let p): return "sign picture \(p) is missing"
        case .chartFailed: return "the progress chart could not be drawn"
        }
    }
}

/// Any method's result: a Message (we keep its id) or something else (true).
struct SentResult: Decodable {
    var messageID: Int64?
    init(from decoder: Decoder) throws {
        messageID = (try? decoder.container(keyedBy: K.self)).flatMap { try? $0.decodeIfPresent(Int64.self, forKey: .messageID) } ?? nil
    }
    enum K: String, CodingKey { case messageID = "message_id" }
}

extension Duration {
    /// The duration as fractional seconds.
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
