import Foundation
import JSONCoding
import TelegramAPI
import TutorCore
import TutorStore

/// Turns the reducer's effects into ready Bot API requests for the outbox (rendering the
/// prompts here, before commit, so the sender only has to deliver them).
public struct OutboxRenderer: Sendable {
    public let prompts: Prompts
    /// Admins' chats (their user ids: admin commands come from private chats): their /help also
    /// lists the admin commands.
    let admins: Set<Int64>
    static let encoder = StreamingJSONEncoder()
    /// Telegram's limit on message text (after entity parsing; we stay under it in raw HTML too).
    public static let maxText = 4096

    public init(prompts: Prompts, admins: Set<Int64> = []) {
        self.prompts = prompts
        self.admins = admins
    }

    /// `picture` of an outbox row whose body is a `ScoreChartSpec` to draw at send time
    /// (its `learnerName` already holds the rendered title).
    public static let chartPicture = "chart"

    public func items(for effects: [Effect], chatID: Int64) -> (outbox: [OutboxItem], answers: [AnswerRecord]) {
        var out: [OutboxItem] = []
        var answers: [AnswerRecord] = []
        for effect in effects {
            switch effect {
            case .recordAnswer(let a):
                answers.append(a)
            case .setTimer, .cancelTimer, .eraseLearner, .createChallenge, .recordChallengePlay, .befriend, .unfriend,
                .recordDailyResult, .recordDailySet, .recordAsk, .voteAsk:
                break  // applied by the runtime with the chat's change (see Bot.Batch)
            case .notify(let other, let reply, let heldUntil):
                // Another chat's message: rendered for that chat, queued behind its replies (and
                // held past their quiet hours when the reducer says so).
                out += items(for: [.send(reply)], chatID: other).outbox.map { item in
                    var item = item
                    item.notBefore = heldUntil
                    return item
                }
            case .answerButton(let id, let toast):
                let text = toast.map { Self.plain(prompts.render(.notice($0))) }
                out.append(
                    item(
                        chatID, "answerCallbackQuery",
                        AnswerCallbackQueryRequest(callbackQueryID: id, text: text.map { String($0.prefix(200)) })))
            case .send(let reply):
                if let chart = reply.chart {
                    var spec = chart
                    spec.learnerName = prompts.text(
                        prompts.strings.buttons["chartTitle"] ?? "{{name}} · {{state}}",
                        ["name": chart.learnerName, "state": chart.stateName])
                    var photo = OutboxItem(
                        chatID: chatID, method: "sendPhoto", body: (try? Self.encoder.encode(spec)) ?? Data("{}".utf8))
                    photo.picture = OutboxRenderer.chartPicture
                    out.append(photo)
                }
                if let picture = reply.picture {
                    var photo = item(chatID, "sendPhoto", SendPhotoRequest(chatID: chatID, photo: ""))
                    photo.picture = picture
                    out.append(photo)
                }
                var body = text(reply)
                if case .help = reply.message, admins.contains(chatID), let admin = prompts.strings.admin?["help"] {
                    body += "\n\n" + admin
                }
                var send = item(
                    chatID, "sendMessage", SendMessageRequest(chatID: chatID, text: body, replyMarkup: markup(reply)))
                send.saveTag = reply.tag
                send.priority = reply.bulk ? OutboxItem.bulkPriority : 0
                out.append(send)
            case .edit(let target, let reply):
                var messageID: Int64 = 0
                var editTag: String?
                switch target {
                case .id(let id): messageID = id
                case .tag(let tag): editTag = tag
                }
                var edit = item(
                    chatID, "editMessageText",
                    EditMessageTextRequest(
                        chatID: chatID, messageID: messageID, text: text(reply),
                        replyMarkup: markup(reply) ?? InlineKeyboardMarkup([])))
                edit.editTag = editTag
                out.append(edit)
            }
        }
        return (out, answers)
    }

    func item<B: Encodable>(_ chatID: Int64, _ method: String, _ body: B) -> OutboxItem {
        item(chatID, method, body: (try? Self.encoder.encode(body)) ?? Data("{}".utf8))
    }

    // The bodies of nearly every update, written field by field (see `JSONFieldWriter`).
    func item(_ chatID: Int64, _ method: String, _ body: SendMessageRequest) -> OutboxItem {
        item(chatID, method, body: body.json)
    }
    func item(_ chatID: Int64, _ method: String, _ body: EditMessageTextRequest) -> OutboxItem {
        item(chatID, method, body: body.json)
    }
    func item(_ chatID: Int64, _ method: String, _ body: AnswerCallbackQueryRequest) -> OutboxItem {
        item(chatID, method, body: body.json)
    }

    func item(_ chatID: Int64, _ method: String, body: Data) -> OutboxItem {
        OutboxItem(
            chatID: chatID, method: method, body: body,
            priority: method == "answerCallbackQuery" ? OutboxItem.tapPriority : 0)
    }

    public func text(_ reply: Reply) -> String {
        let t = prompts.render(reply.message)
        // utf8.count first: counting characters walks every grapheme of every message.
        return t.utf8.count <= Self.maxText || t.count <= Self.maxText ? t : String(t.prefix(Self.maxText - 1)) + "…"
    }

    public func markup(_ reply: Reply) -> InlineKeyboardMarkup? {
        guard !reply.buttons.isEmpty else { return nil }
        return InlineKeyboardMarkup(
            reply.buttons.map { row in
                row.map { b in
                    b.url.map { InlineKeyboardButton(text: prompts.label(b.label), url: $0) }
                        ?? InlineKeyboardButton(text: prompts.label(b.label), callbackData: b.action.callbackData)
                }
            })
    }

    /// Plain text from Telegram HTML (popups, the console): drop tags and decode the few entities we use.
    public static func plain(_ html: String) -> String {
        var s = html.replacingOccurrences(of: "<[^>]+>", with: "", options: .regularExpression)
        for (e, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            s = s.replacingOccurrences(of: e, with: c)
        }
        return s
    }
}

// The same bytes as `StreamingJSONEncoder` (its keys in declaration order, nil optionals left
// out); `RequestBodyTests` compares the two.
extension SendMessageRequest {
    var json: Data {
        JSONFieldWriter.object { j in
            j.int("chat_id", chatID)
            j.string("text", text)
            if let parseMode { j.string("parse_mode", parseMode) }
            if let replyMarkup { replyMarkup.write("reply_markup", to: j) }
            if let linkPreviewOptions {
                j.object("link_preview_options") { j.bool("is_disabled", linkPreviewOptions.isDisabled) }
            }
        }
    }
}

extension EditMessageTextRequest {
    /// `body` (written by `json` for a message known by tag, so with message_id 0) for message
    /// `id`: the id spliced in, nothing decoded or encoded again (nearly every answer is an edit,
    /// so a decode and re-encode of each would be paid at every tap).
    /// Nil for a body of another shape.
    static func body(_ body: Data, chatID: Int64, messageID id: Int64) -> Data? {
        let placeholder = Data(#"{"chat_id":\#(chatID),"message_id":0,"#.utf8)
        guard body.starts(with: placeholder) else { return nil }
        return Data(#"{"chat_id":\#(chatID),"message_id":\#(id),"#.utf8) + body.dropFirst(placeholder.count)
    }

    var json: Data {
        JSONFieldWriter.object { j in
            j.int("chat_id", chatID)
            j.int("message_id", messageID)
            j.string("text", text)
            if let parseMode { j.string("parse_mode", parseMode) }
            if let replyMarkup { replyMarkup.write("reply_markup", to: j) }
        }
    }
}

extension AnswerCallbackQueryRequest {
    var json: Data {
        JSONFieldWriter.object { j in
            j.string("callback_query_id", callbackQueryID)
            if let text { j.string("text", text) }
        }
    }
}

extension InlineKeyboardMarkup {
    func write(_ key: String, to j: JSONFieldWriter) {
        j.object(key) {
            j.array("inline_keyboard") {
                for row in inlineKeyboard {
                    j.array {
                        for b in row {
                            j.object {
                                j.string("text", b.text)
                                if let url = b.url {
                                    j.string("url", url)
                                } else {
                                    j.string("callback_data", b.callbackData ?? "")
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
