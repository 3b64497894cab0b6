import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The fake's HTTP/1.1 server (one thread per connection, keep-alive) and its Bot API methods:
/// what Telegram accepts, what it refuses, and the flood limits when a test asks for them.
extension FakeBotAPI {

    func acceptLoop() {
        defer { close(listenFD) }
        while true {
            let client = accept(listenFD, nil, nil)
            if client < 0 { return }
            let t = Thread { [self] in serve(client) }
            t.start()
        }
    }

    func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer = Data()
        while true {
            guard let headerEnd = readUntilHeaders(fd, &buffer) else { return }
            let head = String(decoding: buffer[..<headerEnd], as: UTF8.self)
            let lines = head.components(separatedBy: "\r\n")
            let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            var length = 0
            var contentType = ""
            for l in lines.dropFirst() {
                let parts = l.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2 else { continue }
                if parts[0].lowercased() == "content-length" { length = Int(parts[1]) ?? 0 }
                if parts[0].lowercased() == "content-type" { contentType = parts[1] }
            }
            buffer.removeSubrange(..<(headerEnd + 4))
            while buffer.count < length {
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let n = read(fd, &chunk, chunk.count)
                if n <= 0 { return }
                buffer.append(contentsOf: chunk[..<n])
            }
            let body = buffer.prefix(length)
            buffer.removeSubrange(..<length)
            let method = String(path.split(separator: "/").last ?? "")
            let (status, response) = handle(method, Data(body), contentType: contentType)
            let payload = (try? JSONSerialization.data(withJSONObject: response)) ?? Data()
            var out = Data(
                "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\nContent-Length: \(payload.count)\r\n\r\n"
                    .utf8)
            out.append(payload)
            _ = out.withUnsafeBytes { write(fd, $0.baseAddress, out.count) }
        }
    }

    func readUntilHeaders(_ fd: Int32, _ buffer: inout Data) -> Int? {
        let marker = Data("\r\n\r\n".utf8)
        while true {
            if let r = buffer.range(of: marker) { return r.lowerBound - buffer.startIndex }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    func error(_ code: Int, _ description: String, retryAfter: Int? = nil) -> (Int, [String: Any]) {
        var b: [String: Any] = ["ok": false, "error_code": code, "description": description]
        if let r = retryAfter { b["parameters"] = ["retry_after": r] }
        return (code, b)
    }

    func handle(_ method: String, _ body: Data, contentType: String) -> (Int, [String: Any]) {
        var json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        if contentType.hasPrefix("multipart/form-data") {
            json = [
                "multipart": true, "chat_id": Int64(FakeBotAPI.multipartField("chat_id", body) ?? "") ?? 0,
                "filename": FakeBotAPI.multipartFilename(body) ?? "",
            ]
        }
        if method == "getUpdates" { return getUpdates(json) }
        var accepted: (Sent, Bool)?
        let response = state.withLock { s -> (Int, [String: Any]) in
            s.calls.append(Call(method: method, body: json, time: Date()))
            if var queue = s.faults[method], !queue.isEmpty {
                let f = queue.removeFirst()
                s.faults[method] = queue
                return (f.status, f.body)
            }
            let r = respond(&s, method, json)
            if r.0 == 200, method == "sendMessage" || method == "editMessageText",
                let id = ((r.1["result"] as? [String: Any])?["message_id"] as? Int64), let sent = s.messages[id]
            {
                accepted = (sent, method == "editMessageText")
            }
            return r
        }
        if let accepted, let observer = observerBox.withLock({ $0 }) { observer.call(accepted.0, accepted.1) }
        return response
    }

    func reject(_ s: inout State, _ code: Int, _ description: String) -> (Int, [String: Any]) {
        s.rejections.append(description)
        return error(code, description)
    }

    func respond(_ s: inout State, _ method: String, _ json: [String: Any]) -> (Int, [String: Any]) {
        func ok(_ r: Any) -> (Int, [String: Any]) { (200, ["ok": true, "result": r]) }
        let chatID = json["chat_id"] as? Int64 ?? (json["chat_id"] as? NSNumber)?.int64Value ?? 0
        if ["sendMessage", "editMessageText", "sendPhoto"].contains(method) {
            if s.blockedChats.contains(chatID) { return error(403, "Forbidden: bot was blocked by the user") }
            let now = Date()
            if let wait = s.globalWait, now > wait.from.addingTimeInterval(Self.inFlightGrace), now < wait.until {
                s.sendsInsideGlobalWait += 1
                s.rateLimitLog.append("inside a global wait \(method) chat \(chatID)")
            }
            if let notBefore = s.retryNotBefore[chatID], now < notBefore {
                s.earlyRetries += 1
                s.rateLimitLog.append(
                    """
                    early retry \(method) chat \(chatID) \
                    \(String(format: "%.2f", notBefore.timeIntervalSince(now))) s early
                    """
                )
            }
            // Telegram's 429 does not say which limit was hit: the body is the same for both.
            func tooMany(_ scope: String, wait: Double) -> (Int, [String: Any]) {
                let seconds = max(1, Int(wait.rounded(.up)))
                s.rateLimited += 1
                s.rateLimitLog.append("\(scope) \(method) chat \(chatID)")
                s.retryNotBefore[chatID] = now.addingTimeInterval(Double(seconds))
                return error(429, "Too Many Requests: retry after \(seconds)", retryAfter: seconds)
            }
            if let limit = s.globalPerSecond {
                if let cut = s.recentSends.firstIndex(where: { now.timeIntervalSince($0) < 1 }) {
                    s.recentSends.removeFirst(cut)
                } else {
                    s.recentSends.removeAll()
                }
                if s.recentSends.count >= limit {
                    let wait = 1 - now.timeIntervalSince(s.recentSends[s.recentSends.count - limit])
                    // The first 429 of a wait starts it; the bot must hold every chat until it ends.
                    if s.globalWait.map({ now >= $0.until }) ?? true {
                        s.globalWait = (now, now.addingTimeInterval(Double(max(1, Int(wait.rounded(.up))))))
                    }
                    return tooMany("global", wait: wait)
                }
            }
            if let gap = s.perChatSeconds {
                // One message per `gap` seconds per chat, with a burst of three tolerated, as Telegram does.
                var t = s.chatTokens[chatID] ?? (3, now)
                t.tokens = min(3, t.tokens + now.timeIntervalSince(t.at) / gap)
                t.at = now
                guard t.tokens >= 0.999 else {
                    s.chatTokens[chatID] = t
                    return tooMany("per-chat", wait: (1 - t.tokens) * gap)
                }
                t.tokens -= 1
                s.chatTokens[chatID] = t
            }
            s.recentSends.append(now)
            if let since = s.awaitingSince.removeValue(forKey: chatID) {
                s.firstReplyLatencies.append(now.timeIntervalSince(since))
            }
        }
        switch method {
        case "getMe": return ok(["id": 42, "is_bot": true, "first_name": "PermitReady", "username": "PermitReadyBot"])
        case "deleteWebhook", "setMyCommands", "sendChatAction": return ok(true)
        case "answerCallbackQuery":
            guard let id = json["callback_query_id"] as? String, s.deliveredCallbacks.contains(id) else {
                return reject(
                    &s, 400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
            }
            if let at = s.callbackSentAt[id] {
                let waited = Date().timeIntervalSince(at)
                guard waited <= 15 else {
                    s.lateAnswers += 1
                    return reject(
                        &s, 400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
                }
                if s.answeredCallbacks[id] == nil { s.tapLatencies.append(waited) }
            }
            s.answeredCallbacks[id, default: 0] += 1
            return ok(true)
        case "sendMessage", "editMessageText":
            let text = json["text"] as? String ?? ""
            if text.isEmpty { return reject(&s, 400, "Bad Request: message text is empty") }
            if FakeBotAPI.visibleLength(text) > 4096 { return reject(&s, 400, "Bad Request: message is too long") }
            if !FakeBotAPI.balancedHTML(text) { return reject(&s, 400, "Bad Request: can't parse entities") }
            let rows = ((json["reply_markup"] as? [String: Any])?["inline_keyboard"] as? [[[String: Any]]]) ?? []
            var buttons: [[(text: String, data: String)]] = []
            for row in rows {
                var r: [(text: String, data: String)] = []
                for b in row {
                    // A link button (exactly one of url / callback_data), kept as "url:<url>".
                    if let url = b["url"] as? String {
                        guard b["callback_data"] == nil, url.hasPrefix("https://") || url.hasPrefix("tg://"),
                            !url.contains(" ")
                        else {
                            return reject(&s, 400, "Bad Request: BUTTON_URL_INVALID")
                        }
                        r.append((b["text"] as? String ?? "", "url:" + url))
                        continue
                    }
                    let data = b["callback_data"] as? String ?? ""
                    if data.utf8.count > 64 || data.isEmpty {
                        return reject(&s, 400, "Bad Request: BUTTON_DATA_INVALID")
                    }
                    r.append((b["text"] as? String ?? "", data))
                }
                buttons.append(r)
            }
            if method == "sendMessage" {
                let id = s.nextMessageID
                s.nextMessageID += 1
                s.messages[id] = Sent(messageID: id, chatID: chatID, text: text, buttons: buttons)
                s.order.append(id)
                return ok(["message_id": id, "date": 0, "chat": ["id": chatID, "type": "private"], "text": text])
            }
            let id = (json["message_id"] as? NSNumber)?.int64Value ?? 0
            guard let old = s.messages[id], old.chatID == chatID else {
                return reject(&s, 400, "Bad Request: message to edit not found")
            }
            if old.text == text && old.buttons.map({ $0.map(\.data) }) == buttons.map({ $0.map(\.data) }) {
                return error(
                    400,
                    """
                    Bad Request: message is not modified: specified new message content and reply markup are \
                    exactly the same as a current content and reply markup of the message
                    """
                )
            }
            s.messages[id] = Sent(messageID: id, chatID: chatID, text: text, buttons: buttons)
            s.order.removeAll { $0 == id }
            s.order.append(id)
            return ok(["message_id": id, "date": 0, "chat": ["id": chatID, "type": "private"], "text": text])
        case "sendPhoto":
            let id = s.nextMessageID
            s.nextMessageID += 1
            let fileID: String
            if json["multipart"] != nil {
                s.uploads += 1
                fileID = "file-\(s.uploads)"
                s.uploadedFiles[json["filename"] as? String ?? "", default: 0] += 1
            } else {
                s.fileIDSends += 1
                fileID = json["photo"] as? String ?? ""
            }
            return ok([
                "message_id": id, "date": 0, "chat": ["id": chatID, "type": "private"],
                "photo": [["file_id": fileID, "file_unique_id": fileID, "width": 512, "height": 512]],
            ])
        default:
            return reject(&s, 404, "Not Found: method \(method)")
        }
    }

    func getUpdates(_ json: [String: Any]) -> (Int, [String: Any]) {
        let offset = (json["offset"] as? NSNumber)?.int64Value ?? 0
        let timeout = (json["timeout"] as? NSNumber)?.doubleValue ?? 0
        if let fault = state.withLock({ s -> (Int, [String: Any])? in
            guard var q = s.faults["getUpdates"], !q.isEmpty else { return nil }
            let f = q.removeFirst()
            s.faults["getUpdates"] = q
            return (f.status, f.body)
        }) {
            return fault
        }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let batch = state.withLock { s -> [[String: Any]] in
                s.confirmedOffset = max(s.confirmedOffset, offset)
                // Confirmed updates are gone for good, as on Telegram: drop them so a poll stays cheap.
                if offset > s.firstUpdateID {
                    let drop = min(s.updates.count, Int(offset - s.firstUpdateID))
                    s.updates.removeFirst(drop)
                    s.firstUpdateID += Int64(drop)
                }
                return s.updates.prefix(100).filter { (($0["update_id"] as? Int64) ?? 0) >= offset }
            }
            if !batch.isEmpty { return (200, ["ok": true, "result": batch]) }
            usleep(10_000)
        } while Date() < deadline
        return (200, ["ok": true, "result": []])
    }
}
