import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small Telegram Bot API stand-in on 127.0.0.1 for end-to-end tests and `permitready bench`. It speaks real HTTP/1.1
/// (keep-alive, Content-Length, multipart) to the bot's real libcurl client, and it rejects what
/// Telegram would reject, so a bad request fails a test instead of a teen's chat:
/// text over 4096 characters, callback_data over 64 bytes, an edit that changes nothing
/// ("message is not modified"), an edit of an unknown message; and it remembers every callback
/// query it delivered so a test can check each was answered.
public final class FakeBotAPI: @unchecked Sendable {
    // @unchecked Sendable: all mutable state is inside `state` (a Mutex); the socket fd is set
    // once in init and only read afterwards.
    public struct Sent: Equatable {
        public var messageID: Int64
        public var chatID: Int64
        public var text: String
        public var buttons: [[(text: String, data: String)]]
        public static func == (a: Sent, b: Sent) -> Bool { a.messageID == b.messageID && a.text == b.text }
    }

    public struct Call {
        public var method: String
        public var body: [String: Any]
        public var time: Date
    }

    public struct State {
        var updates: [[String: Any]] = []
        var nextUpdateID: Int64 = 1
        var confirmedOffset: Int64 = 0
        var messages: [Int64: Sent] = [:]
        var order: [Int64] = []
        var nextMessageID: Int64 = 100
        public var calls: [Call] = []
        public var rejections: [String] = []
        var deliveredCallbacks: Set<String> = []
        var answeredCallbacks: [String: Int] = [:]
        /// Responses forced for the next calls of a method (fault injection).
        var faults: [String: [(status: Int, body: [String: Any])]] = [:]
        var uploads = 0
        var fileIDSends = 0
        var uploadedFiles: [String: Int] = [:]
        /// Telegram's flood limits, when a test turns them on: messages per second overall, seconds between messages
        /// per chat.
        var globalPerSecond: Int?
        var perChatSeconds: Double?
        var recentSends: [Date] = []
        var chatTokens: [Int64: (tokens: Double, at: Date)] = [:]
        var rateLimited = 0
        var rateLimitLog: [String] = []
        /// Chats whose user blocked the bot: every send answers 403.
        var blockedChats: Set<Int64> = []
        /// When each callback query was delivered, and how long its answer took (the load test's tap latency).
        var callbackSentAt: [String: Date] = [:]
        public var tapLatencies: [Double] = []
        /// Answers that came after Telegram's 15 s: refused as "query is too old", as Telegram does.
        public var lateAnswers = 0
        /// Per chat: when the learner's oldest unanswered update was queued; the first message or
        /// edit to that chat after it is the learner's "first reply" latency.
        var awaitingSince: [Int64: Date] = [:]
        public var firstReplyLatencies: [Double] = []
        /// A 429 tells the caller to wait `retry_after` for that chat: a request for it earlier is an early retry.
        var retryNotBefore: [Int64: Date] = [:]
        public var earlyRetries = 0
        /// A global 429 tells the bot to wait `retry_after` for every chat: a message sent more
        /// than `inFlightGrace` after it (so not one already on its way) and before its end.
        public var sendsInsideGlobalWait = 0
        var globalWait: (from: Date, until: Date)?
        /// Index of the first update not yet confirmed (updates before it are dropped from `updates`).
        var firstUpdateID: Int64 = 1
    }

    /// Called (outside the lock) after each message or edit the fake accepted: a load test's learners react to it.
    public typealias Observer = @Sendable (_ sent: Sent, _ isEdit: Bool) -> Void
    /// The observer lives in a class: a closure stored straight in the generic `Locked` was
    /// re-wrapped in two reabstraction thunks on every `withLock` that read it, so after 20,000
    /// messages each call went through 40,000 thunks — the load harness spent more than half of
    /// the machine on that and capped the bot it was measuring at ~200 updates/s.
    final class ObserverRef: Sendable {
        let call: Observer
        init(_ call: @escaping Observer) { self.call = call }
    }
    let observerBox = Locked<ObserverRef?>(nil)
    public func observe(_ observer: @escaping Observer) { observerBox.withLock { $0 = ObserverRef(observer) } }

    public let state = Locked(State())
    public let port: UInt16
    let listenFD: Int32

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else { throw NSError(domain: "FakeBotAPI", code: 1) }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &addr) {
            _ = $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = UInt16(bigEndian: addr.sin_port)
        listenFD = fd
        let t = Thread { [self] in acceptLoop() }
        t.start()
    }

    /// Wakes the accept loop, which closes the socket itself: closing it here could let a new
    /// server reuse the descriptor while the old loop still accepts on it.
    public func stop() { shutdown(listenFD, Int32(SHUT_RDWR)) }

    // MARK: - scripting

    public func enqueue(_ update: [String: Any]) {
        state.withLock { s in
            var u = update
            u["update_id"] = s.nextUpdateID
            s.nextUpdateID += 1
            let now = Date()
            if let q = u["callback_query"] as? [String: Any], let id = q["id"] as? String {
                s.deliveredCallbacks.insert(id)
                s.callbackSentAt[id] = now
            }
            let chat =
                ((u["message"] as? [String: Any])?["chat"] as? [String: Any])?["id"] as? Int64
                ?? (((u[
                    """
                    callback_query
                    """] as? [String: Any])?["message"] as? [String: Any])?["chat"] as? [String: Any])?[
                    "id"] as? Int64
            if let chat, s.awaitingSince[chat] == nil { s.awaitingSince[chat] = now }
            s.updates.append(u)
        }
    }

    /// First names of the fake users (default "Sam").
    public let names = Locked<[Int64: String]>([:])
    public func user(_ chatID: Int64) -> [String: Any] {
        ["id": chatID, "is_bot": false, "first_name": names.withLock { $0[chatID] } ?? "Sam", "language_code": "en"]
    }

    public func say(_ text: String, chat: Int64) {
        enqueue([
            "message": [
                "message_id": 1, "date": 0, "chat": ["id": chat, "type": "private"], "from": user(chat), "text": text,
            ]
        ])
    }

    public func sendSticker(chat: Int64) {
        enqueue([
            "message": [
                "message_id": 1, "date": 0, "chat": ["id": chat, "type": "private"], "from": user(chat),
                "sticker": [
                    "file_id": "x", "file_unique_id": "y", "type": "regular", "width": 1, "height": 1,
                    "is_animated": false, "is_video": false,
                ],
            ]
        ])
    }

    /// Presses the button with this text (or text prefix) on the newest message of the chat that has one.
    @discardableResult
    public func press(_ label: String, chat: Int64) -> Bool {
        guard
            let (messageID, data) = state.withLock({ s -> (Int64, String)? in
                for id in s.order.reversed() {
                    guard let m = s.messages[id], m.chatID == chat else { continue }
                    if let b = m.buttons.joined().first(where: { $0.text == label || $0.text.hasPrefix(label) }) {
                        return (id, b.data)
                    }
                }
                return nil
            })
        else { return false }
        pressData(data, messageID: messageID, chat: chat)
        return true
    }

    public func pressData(_ data: String, messageID: Int64, chat: Int64) {
        let id = "cb-\(UUID().uuidString.prefix(12))"
        enqueue([
            "callback_query": [
                "id": id, "from": user(chat), "chat_instance": "ci", "data": data,
                "message": ["message_id": messageID, "date": 0, "chat": ["id": chat, "type": "private"]],
            ]
        ])
    }

    public func inject(_ method: String, status: Int, body: [String: Any]) {
        state.withLock { $0.faults[method, default: []].append((status, body)) }
    }

    public var messages: [Sent] { state.withLock { s in s.order.compactMap { s.messages[$0] } } }
    public func messages(chat: Int64) -> [Sent] { messages.filter { $0.chatID == chat } }
    public var calls: [Call] { state.withLock { $0.calls } }
    public var rejections: [String] { state.withLock { $0.rejections } }
    /// Photos uploaded as files, and photos re-sent by file_id.
    public var uploads: Int { state.withLock { $0.uploads } }
    public var fileIDSends: Int { state.withLock { $0.fileIDSends } }
    public var rateLimited: Int { state.withLock { $0.rateLimited } }
    public var earlyRetries: Int { state.withLock { $0.earlyRetries } }
    public var sendsInsideGlobalWait: Int { state.withLock { $0.sendsInsideGlobalWait } }
    /// Requests that left before a 429 reached the bot still arrive after it.
    static let inFlightGrace = 0.3
    public var lateAnswers: Int { state.withLock { $0.lateAnswers } }
    public var tapLatencies: [Double] { state.withLock { $0.tapLatencies } }
    public var firstReplyLatencies: [Double] { state.withLock { $0.firstReplyLatencies } }
    /// Which requests got 429, for a failing test's message.
    public var rateLimitLog: [String] { state.withLock { $0.rateLimitLog } }
    public var uploadedFiles: [String: Int] { state.withLock { $0.uploadedFiles } }

    /// Answers 429 (with retry_after) beyond these rates, as Telegram does.
    public func enforceRateLimits(globalPerSecond: Int, perChatSeconds: Double) {
        state.withLock {
            $0.globalPerSecond = globalPerSecond
            $0.perChatSeconds = perChatSeconds
        }
    }

    public func block(_ chats: Set<Int64>) { state.withLock { $0.blockedChats.formUnion(chats) } }

    public var pendingUpdates: Int {
        state.withLock { s in s.updates.filter { (($0["update_id"] as? Int64) ?? 0) >= s.confirmedOffset }.count }
    }
    /// Updates queued and not yet fetched by any poll.
    public var queuedUpdates: Int { state.withLock { $0.updates.count } }
    public var unansweredCallbacks: Set<String> {
        state.withLock { s in s.deliveredCallbacks.subtracting(s.answeredCallbacks.keys) }
    }
    public var callbacksAnsweredTwice: [String] {
        state.withLock { s in s.answeredCallbacks.filter { $0.value > 1 }.map(\.key) }
    }
    public var allUpdatesConfirmed: Bool { state.withLock { s in s.confirmedOffset >= s.nextUpdateID } }

    /// Polls until `condition` holds (the bot works asynchronously); false after `timeout`.
    public func wait(timeout: TimeInterval = 15, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    // The HTTP server and the Bot API methods: FakeBotAPI+Server.swift.

    /// Telegram counts characters after entity parsing: tags out, entities as one character.
    public static func visibleLength(_ html: String) -> Int {
        html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "&[a-z#0-9]+;", with: "x", options: .regularExpression).count
    }

    /// Every tag Telegram's HTML mode supports must be closed in order; a stray "<" fails.
    public static func balancedHTML(_ html: String) -> Bool {
        var stack: [String] = []
        let pattern = try! NSRegularExpression(pattern: "<(/?)([a-z-]+)[^>]*>|<")
        for m in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            guard m.range(at: 2).location != NSNotFound, let r = Range(m.range(at: 2), in: html) else { return false }
            let tag = String(html[r])
            guard ["b", "i", "u", "s", "code", "pre", "a", "tg-spoiler", "blockquote"].contains(tag) else {
                return false
            }
            if let c = Range(m.range(at: 1), in: html), !html[c].isEmpty {
                guard stack.popLast() == tag else { return false }
            } else {
                stack.append(tag)
            }
        }
        return stack.isEmpty
    }

    public static func multipartFilename(_ body: Data) -> String? {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        guard let r = text.range(of: "filename=\"") else { return nil }
        return String(text[r.upperBound...].prefix { $0 != "\"" })
    }

    public static func multipartField(_ name: String, _ body: Data) -> String? {
        let text = String(decoding: body.prefix(2048), as: UTF8.self)
        guard let r = text.range(of: "name=\"\(name)\"\r\n\r\n") else { return nil }
        // "\r\n" is one Character in Swift: stop at either.
        return String(text[r.upperBound...].prefix { $0 != "\r\n" && $0 != "\r" })
    }
}

/// NSLock around a value: the fake's state holds `[String: Any]` JSON, which a Mutex (sending) refuses.
public final class Locked<T>: @unchecked Sendable {
    // @unchecked Sendable: every access to `value` goes through `lock`.
    private var value: T
    private let lock = NSLock()
    public init(_ value: T) { self.value = value }
    public func withLock<R>(_ body: (inout T) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
