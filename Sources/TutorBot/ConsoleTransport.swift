import Foundation
import Synchronization
import TelegramAPI

/// The Bot API seam played by a terminal: `permitready chat` runs the very same runtime
/// (parse → reduce → commit → outbox → send) with this in place of libcurl. Lines typed become
/// updates; sent messages are printed with their buttons numbered; typing a number presses one.
public final class ConsoleTransport: BotAPITransport, Sendable {
    /// The console's learner: user and private chat id 1 unless `permitready chat --user N` says
    /// otherwise (two consoles on one database are two learners; make one an admin with
    /// PERMITREADY_ADMINS=N).
    public let chatID: Int64
    let user: User
    public static let defaultUserID: Int64 = 1
    let lines: LineReader
    let state = Mutex(ConsoleState())
    let write: @Sendable (String) -> Void

    struct ConsoleState {
        var nextMessageID: Int64 = 1
        var nextUpdateID: Int64 = 1
        var choices: [(data: String, messageID: Int64)] = []
        var startSent = false
    }

    public init(
        userID: Int64 = ConsoleTransport.defaultUserID, name: String? = nil,
        input: @escaping @Sendable () -> String? = { readLine() },
        write: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.chatID = userID
        let login =
            ProcessInfo.processInfo.environment["USER"].map { $0 == "root" ? "Driver" : $0.capitalized } ?? "Driver"
        self.user = User(id: userID, firstName: name ?? login)
        self.lines = LineReader(read: input)
        self.write = write
    }

    nonisolated(nonsending) public func post(_ method: String, _ body: RequestBody, timeout: TimeInterval) async throws
        -> HTTPResult
    {
        let json: [String: Any]
        switch body {
        case .json(let d): json = (try? JSONSerialization.jsonObject(with: d)) as? [String: Any] ?? [:]
        case .multipart(let parts):
            var j: [String: Any] = [:]
            for p in parts { j[p.name] = p.filename ?? String(decoding: p.data, as: UTF8.self) }
            json = j
        }
        switch method {
        case "getUpdates":
            // Update ids go on from the offset the database has confirmed, as Telegram's do. Each
            // update's id seeds its reduction (answer order, question draws): runs that all started
            // at 1 replayed the same shuffles, and a play-tester resuming a test run by run found
            // the right answer "always D" (the banks' keys are mostly written first, so one
            // permutation repeated put most of them last). Small ids stay safe for a real bot that
            // is later run on the same file: an offset below Telegram's ids just confirms nothing.
            if let offset = (json["offset"] as? NSNumber)?.int64Value {
                state.withLock { s in s.nextUpdateID = max(s.nextUpdateID, offset) }
            }
            return try await nextUpdate()
        case "getMe": return ok(["id": 0, "is_bot": true, "first_name": "PermitReady", "username": "PermitReadyBot"])
        case "sendMessage", "editMessageText":
            let text = OutboxRenderer.plain(json["text"] as? String ?? "")
            var id = (json["message_id"] as? NSNumber)?.int64Value ?? 0
            state.withLock { s in
                if method == "sendMessage" {
                    id = s.nextMessageID
                    s.nextMessageID += 1
                }
            }
            let edited = method == "editMessageText"
            write(
                (edited ? "  ✏️  (updated)\n" : "")
                    + text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
                        separator: "\n"))
            printButtons(json["reply_markup"] as? [String: Any], messageID: id)
            write("")
            return ok(["message_id": id, "date": 0, "chat": ["id": chatID, "type": "private"], "text": text])
        case "sendPhoto":
            let id = state.withLock { s -> Int64 in
                defer { s.nextMessageID += 1 }
                return s.nextMessageID
            }
            let name = json["photo"] as? String ?? "picture"
            write("  🖼  [sign picture: \(name)]")
            return ok([
                "message_id": id, "date": 0, "chat": ["id": chatID, "type": "private"],
                "photo": [["file_id": "console-\(name)", "file_unique_id": name, "width": 512, "height": 512]],
            ])
        case "answerCallbackQuery":
            if let t = json["text"] as? String { write("  💬 \(t)\n") }
            return ok(true)
        default:
            return ok(true)
        }
    }

    func printButtons(_ markup: [String: Any]?, messageID: Int64) {
        guard let rows = markup?["inline_keyboard"] as? [[[String: Any]]], !rows.isEmpty else { return }
        var lines: [String] = []
        state.withLock { s in
            s.choices = []
            for row in rows {
                var cells: [String] = []
                for b in row {
                    // A link button (the challenge's "Send to a friend") is opened by Telegram, not the bot.
                    s.choices.append(
                        ((b["url"] as? String).map { "url:" + $0 } ?? b["callback_data"] as? String ?? "", messageID))
                    cells.append("[\(s.choices.count)] \(b["text"] as? String ?? "")")
                }
                lines.append("  " + cells.joined(separator: "   "))
            }
        }
        write(lines.joined(separator: "\n"))
    }

    func nextUpdate() async throws -> HTTPResult {
        let first = state.withLock { s -> Bool in
            defer { s.startSent = true }
            return !s.startSent
        }
        if first { return ok([update(["message": message("/start")])]) }
        var text = ""
        var choice: (data: String, messageID: Int64)?
        repeat {
            guard let line = await lines.next() else { throw TransportClosed() }
            text = line.trimmingCharacters(in: .whitespaces)
            if text == "/quit" || text == "/exit" { throw TransportClosed() }
            choice = state.withLock { s -> (data: String, messageID: Int64)? in
                guard let n = Int(text), n >= 1, n <= s.choices.count else { return nil }
                return s.choices[n - 1]
            }
            guard let link = choice?.data, link.hasPrefix("url:") else { break }
            write(Self.linkNote(String(link.dropFirst(4))))
        } while true
        if let choice {
            let q: [String: Any] = [
                "id": "cb\(choice.messageID)-\(Int.random(in: 0..<1_000_000))", "from": userJSON, "data": choice.data,
                "chat_instance": "console",
                "message": ["message_id": choice.messageID, "date": 0, "chat": ["id": chatID, "type": "private"]],
            ]
            return ok([update(["callback_query": q])])
        }
        return ok([update(["message": message(text)])])
    }

    /// What pressing a link button does here: Telegram would open it; a console says how to play it.
    static func linkNote(_ url: String) -> String {
        let start = URLComponents(string: url)?.queryItems?.first { $0.name == "url" }?.value ?? url
        let payload = URLComponents(string: start)?.queryItems?.first { $0.name == "start" }?.value
        return "  🔗 " + start
            + (payload.map { "\n  (Telegram opens links. Here, a friend's console types: /start \($0))" } ?? "") + "\n"
    }

    var userJSON: [String: Any] {
        ["id": user.id, "is_bot": false, "first_name": user.firstName, "language_code": "en"]
    }

    func message(_ text: String) -> [String: Any] {
        ["message_id": 0, "date": 0, "chat": ["id": chatID, "type": "private"], "from": userJSON, "text": text]
    }

    func update(_ body: [String: Any]) -> [String: Any] {
        let id = state.withLock { s -> Int64 in
            defer { s.nextUpdateID += 1 }
            return s.nextUpdateID
        }
        return body.merging(["update_id": id]) { a, _ in a }
    }

    func ok(_ result: Any) -> HTTPResult {
        let data = (try? JSONSerialization.data(withJSONObject: ["ok": true, "result": result])) ?? Data()
        return HTTPResult(status: 200, body: data)
    }
}

/// Reads lines on a thread of its own (a blocking read must stay off Swift's cooperative pool).
final class LineReader: Sendable {
    struct Buffer {
        var lines: [String] = []
        var finished = false
        var waiter: CheckedContinuation<String?, Never>?
    }
    let buffer = Mutex(Buffer())

    init(read: @escaping @Sendable () -> String?) {
        let thread = Thread { [self] in
            // By the thread itself, in 15 characters at most (see `CurlTransport.threadName`).
            Thread.current.name = "console-input"
            while true {
                let line = read()
                let waiter = self.buffer.withLock { b -> CheckedContinuation<String?, Never>? in
                    if let line { if b.waiter == nil { b.lines.append(line) } } else { b.finished = true }
                    defer { b.waiter = nil }
                    return b.waiter
                }
                waiter?.resume(returning: line)
                if line == nil { return }
            }
        }
        thread.start()
    }

    /// The next line, or nil at end of input.
    func next() async -> String? {
        await withCheckedContinuation { (c: CheckedContinuation<String?, Never>) in
            let ready = buffer.withLock { b -> String?? in
                if !b.lines.isEmpty { return .some(b.lines.removeFirst()) }
                if b.finished { return .some(nil) }
                b.waiter = c
                return .none
            }
            if case .some(let line) = ready { c.resume(returning: line) }
        }
    }
}
