import Foundation

/// Bot API failures a caller acts on.
public enum BotAPIError: Error, Equatable, CustomStringConvertible {
    /// 429: every call in this scope fails for this many seconds.
    case retryAfter(seconds: Int)
    /// 403: the user blocked the bot (or the chat is gone).
    case blocked(String)
    /// 409: another getUpdates poller (or a webhook) is using this token.
    case conflict(String)
    /// 401/404 on the token: it is wrong or revoked.
    case unauthorized
    /// Any other 4xx: our request was wrong; retrying will not help.
    case badRequest(code: Int, description: String)
    /// 5xx: Telegram's side; retry with backoff.
    case server(code: Int, description: String)
    /// No usable response (network failure or a body that is not the Bot API's envelope).
    case network(String)
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .retryAfter(let s): return "429 Too Many Requests: retry after \(s) s"
        case .blocked(let d): return "403 \(d)"
        case .conflict(let d): return "409 \(d)"
        case .unauthorized: return "401 Unauthorized: the bot token is wrong or revoked"
        case .badRequest(let c, let d): return "\(c) \(d)"
        case .server(let c, let d): return "\(c) \(d)"
        case .network(let d): return d
        case .malformedResponse(let d): return "malformed response: \(d)"
        }
    }

    /// Whether trying the same request again later can succeed.
    public var isTransient: Bool {
        switch self {
        case .retryAfter, .server, .network, .malformedResponse: return true
        default: return false
        }
    }
}

/// Typed Bot API methods over one transport seam.
public struct BotAPI: Sendable {
    public let transport: any BotAPITransport
    /// getUpdates' own long-poll timeout; the HTTP timeout is longer so Telegram answers first.
    public var pollTimeout: Int
    public var requestTimeout: TimeInterval

    public init(transport: any BotAPITransport, pollTimeout: Int = 50, requestTimeout: TimeInterval = 30) {
        self.transport = transport
        self.pollTimeout = pollTimeout
        self.requestTimeout = requestTimeout
    }

    static let encoder = JSONEncoder()

    /// Calls `method` with a ready body and decodes `result`, mapping Bot API errors to `BotAPIError`.
    nonisolated(nonsending) public func call<R: Decodable>(
        _ method: String, _ body: RequestBody, as: R.Type, timeout: TimeInterval? = nil
    ) async throws -> R {
        let http: HTTPResult
        do {
            http = try await transport.post(method, body, timeout: timeout ?? requestTimeout)
        } catch let e as TransportError {
            throw BotAPIError.network(e.description)
        }
        return try BotAPI.decode(http, as: R.self)
    }

    /// Sends a ready request and returns the message id Telegram gave back, if any (nil for a
    /// method whose result is `true`).
    nonisolated(nonsending) public func send(_ method: String, _ body: RequestBody) async throws -> Int64? {
        let http: HTTPResult
        do {
            http = try await transport.post(method, body, timeout: requestTimeout)
        } catch let e as TransportError {
            throw BotAPIError.network(e.description)
        }
        return try BotAPI.sentMessageID(http)
    }

    /// `send` with no task waiting: `then` hears the outcome on the transport's thread (keep it
    /// short). For requests nobody awaits, such as tap answers.
    public func send(
        _ method: String, _ body: RequestBody, timeout: TimeInterval? = nil,
        then: @escaping @Sendable (Result<Int64?, Error>) -> Void
    ) {
        transport.post(method, body, timeout: timeout ?? requestTimeout) { outcome in
            then(
                Result {
                    do { return try BotAPI.sentMessageID(try outcome.get()) } catch let e as TransportError {
                        throw BotAPIError.network(e.description)
                    }
                })
        }
    }

    /// What a send's answer says: the new message's id (nil for a method whose result is `true`),
    /// or the Bot API's error.
    static func sentMessageID(_ http: HTTPResult) throws -> Int64? {
        try BotAPI.decode(http, as: SentMessageID.self).messageID
    }

    nonisolated(nonsending) public func call<B: Encodable, R: Decodable>(
        _ method: String, _ body: B, as: R.Type, timeout: TimeInterval? = nil
    ) async throws -> R {
        try await call(method, .json(try BotAPI.encoder.encode(body)), as: R.self, timeout: timeout)
    }

    static func decode<R: Decodable>(_ http: HTTPResult, as: R.Type) throws -> R {
        let envelope: APIResponse<R>
        do {
            envelope = try JSONDecoder().decode(APIResponse<R>.self, from: http.body)
        } catch {
            if http.status >= 500 { throw BotAPIError.server(code: http.status, description: "non-JSON body") }
            throw BotAPIError.malformedResponse("HTTP \(http.status), \(http.body.count) bytes")
        }
        if envelope.ok, let result = envelope.result { return result }
        let code = envelope.errorCode ?? http.status
        let text = envelope.description ?? "no description"
        switch code {
        case 429: throw BotAPIError.retryAfter(seconds: max(1, envelope.parameters?.retryAfter ?? 1))
        case 403: throw BotAPIError.blocked(text)
        case 409: throw BotAPIError.conflict(text)
        case 401, 404: throw BotAPIError.unauthorized
        case 500...: throw BotAPIError.server(code: code, description: text)
        default: throw BotAPIError.badRequest(code: code, description: text)
        }
    }

    /// Telegram answers 400 "message is not modified" when an edit changes nothing (a double tap): that is success.
    public static func isNotModified(_ error: Error) -> Bool {
        if case BotAPIError.badRequest(400, let d) = error { return d.contains("message is not modified") }
        return false
    }

    // MARK: - methods

    public func getMe() async throws -> User {
        try await call("getMe", [String: String](), as: User.self)
    }

    public func deleteWebhook() async throws {
        _ = try await call("deleteWebhook", ["drop_pending_updates": false], as: Bool.self)
    }

    struct GetUpdates: Encodable {
        var offset: Int64
        var timeout: Int
        var limit: Int
        var allowed_updates: [String]
    }

    /// Telegram's most (and default) updates per getUpdates.
    public static let updatesPerPoll = 100

    nonisolated(nonsending) public func getUpdates(offset: Int64, limit: Int = updatesPerPoll) async throws
        -> [ReceivedUpdate]
    {
        let body = GetUpdates(
            offset: offset, timeout: pollTimeout, limit: limit,
            allowed_updates: ["message", "edited_message", "callback_query", "my_chat_member"])
        let http: HTTPResult
        do {
            http = try await transport.post(
                "getUpdates", .json(try BotAPI.encoder.encode(body)), timeout: TimeInterval(pollTimeout + 15))
        } catch let e as TransportError {
            throw BotAPIError.network(e.description)
        }
        return try BotAPI.decode(http, as: [ReceivedUpdate].self)
    }

    public func setMyCommands(_ commands: [BotCommand]) async throws {
        _ = try await call("setMyCommands", ["commands": commands], as: Bool.self)
    }

    nonisolated(nonsending) public func sendMessage(_ request: SendMessageRequest) async throws -> Message {
        try await call("sendMessage", request, as: Message.self)
    }

    /// Returns nil when Telegram says the message is already exactly so.
    @discardableResult
    nonisolated(nonsending) public func editMessageText(_ request: EditMessageTextRequest) async throws -> Message? {
        do {
            return try await call("editMessageText", request, as: EditResult.self).message
        } catch  where BotAPI.isNotModified(error) {
            return nil
        }
    }

    public func answerCallbackQuery(_ request: AnswerCallbackQueryRequest) async throws {
        _ = try await call("answerCallbackQuery", request, as: Bool.self)
    }

    /// Re-sends a photo Telegram already has, by file_id; returns the new message's id. The reply
    /// is read like any other send's (`QuickReply`): decoding the whole Message with its photo
    /// sizes was most of a sign question's cost.
    nonisolated(nonsending) public func sendPhoto(_ request: SendPhotoRequest) async throws -> Int64? {
        try await send("sendPhoto", .json(try BotAPI.encoder.encode(request)))
    }

    /// Uploads a PNG (multipart); the returned message's largest `photo` size carries the file_id to reuse.
    nonisolated(nonsending) public func sendPhoto(chatID: Int64, png: Data, filename: String, caption: String? = nil)
        async throws -> Message
    {
        var parts = [
            MultipartPart(name: "chat_id", data: Data(String(chatID).utf8)),
            MultipartPart(name: "photo", data: png, filename: filename, contentType: "image/png"),
        ]
        if let caption {
            parts.append(MultipartPart(name: "caption", data: Data(caption.utf8)))
            parts.append(MultipartPart(name: "parse_mode", data: Data("HTML".utf8)))
        }
        return try await call("sendPhoto", .multipart(parts), as: Message.self)
    }
}

/// editMessageText returns the Message, or `true` for inline messages.
public struct EditResult: Decodable, Sendable {
    public var message: Message?
    public init(from decoder: Decoder) throws { message = try? Message(from: decoder) }
}

/// Any sending method's result: a Message (its id is kept) or something else (`true`).
struct SentMessageID: Decodable {
    var messageID: Int64?
    init(from decoder: Decoder) throws {
        messageID =
            (try? decoder.container(keyedBy: K.self)).flatMap {
                try? $0.decodeIfPresent(Int64.self, forKey: .messageID)
            } ?? nil
    }
    enum K: String, CodingKey { case messageID = "message_id" }
}
