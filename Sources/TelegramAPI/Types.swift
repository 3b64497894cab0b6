import Foundation

// Codable Bot API types for what PermitReady uses. Unknown fields are ignored by Decodable, and
// enum-like values (chat type, member status) stay Strings, so fields and values Telegram adds
// later never break decoding.

public struct User: Codable, Equatable, Sendable {
    public var id: Int64
    public var isBot: Bool
    public var firstName: String
    public var lastName: String?
    public var username: String?
    public var languageCode: String?

    public init(
        id: Int64, isBot: Bool = false, firstName: String, lastName: String? = nil, username: String? = nil,
        languageCode: String? = nil
    ) {
        self.id = id
        self.isBot = isBot
        self.firstName = firstName
        self.lastName = lastName
        self.username = username
        self.languageCode = languageCode
    }

    enum CodingKeys: String, CodingKey {
        case id
        case isBot = "is_bot"
        case firstName = "first_name"
        case lastName = "last_name"
        case username
        case languageCode = "language_code"
    }
}

public struct Chat: Codable, Equatable, Sendable {
    public var id: Int64
    /// "private", "group", "supergroup", "channel", or anything Telegram adds.
    public var type: String
    public var title: String?
    public var firstName: String?

    public init(id: Int64, type: String, title: String? = nil, firstName: String? = nil) {
        self.id = id
        self.type = type
        self.title = title
        self.firstName = firstName
    }

    enum CodingKeys: String, CodingKey {
        case id, type, title
        case firstName = "first_name"
    }
    public var isPrivate: Bool { type == "private" }
}

/// Decodes any JSON value and keeps only the fact that it was there.
public struct Present: Codable, Equatable, Sendable {
    public init() {}
    public init(from decoder: Decoder) throws {}
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode([String: String]())
    }
}

public struct PhotoSize: Codable, Equatable, Sendable {
    public var fileID: String
    public var fileUniqueID: String?
    public var width: Int?
    public var height: Int?
    enum CodingKeys: String, CodingKey {
        case fileID = "file_id"
        case fileUniqueID = "file_unique_id"
        case width, height
    }
}

public struct Message: Codable, Equatable, Sendable {
    public var messageID: Int64
    public var from: User?
    public var chat: Chat
    public var date: Int64
    public var text: String?
    public var photo: [PhotoSize]?
    public var sticker: Present?
    public var voice: Present?
    public var video: Present?
    public var videoNote: Present?
    public var audio: Present?
    public var document: Present?
    public var animation: Present?
    public var location: Present?
    public var contact: Present?
    public var poll: Present?
    public var caption: String?

    public init(messageID: Int64, from: User?, chat: Chat, date: Int64, text: String? = nil) {
        self.messageID = messageID
        self.from = from
        self.chat = chat
        self.date = date
        self.text = text
    }

    enum CodingKeys: String, CodingKey {
        case messageID = "message_id"
        case from, chat, date, text, photo, sticker, voice, video
        case videoNote = "video_note"
        case audio, document, animation, location, contact, poll, caption
    }

    /// What kind of non-text content this is, for a kind reply ("stickers are fun, but…").
    public var contentKind: String? {
        if text != nil { return nil }
        let kinds: [(String, Bool)] = [
            ("sticker", sticker != nil), ("photo", photo != nil), ("voice", voice != nil),
            ("video", video != nil), ("video_note", videoNote != nil), ("audio", audio != nil),
            ("document", document != nil), ("animation", animation != nil),
            ("location", location != nil), ("contact", contact != nil), ("poll", poll != nil),
        ]
        return kinds.first(where: \.1)?.0 ?? "other"
    }
}

public struct CallbackQuery: Codable, Equatable, Sendable {
    public var id: String
    public var from: User
    public var message: Message?
    public var data: String?

    public init(id: String, from: User, message: Message?, data: String?) {
        self.id = id
        self.from = from
        self.message = message
        self.data = data
    }
}

public struct ChatMember: Codable, Equatable, Sendable {
    /// "member", "kicked", "left", … (kept as text: Telegram may add values).
    public var status: String
    public var user: User
}

public struct ChatMemberUpdated: Codable, Equatable, Sendable {
    public var chat: Chat
    public var from: User
    public var date: Int64
    public var newChatMember: ChatMember
    enum CodingKeys: String, CodingKey {
        case chat, from, date
        case newChatMember = "new_chat_member"
    }
}

public struct Update: Codable, Equatable, Sendable {
    public var updateID: Int64
    public var message: Message?
    public var editedMessage: Message?
    public var callbackQuery: CallbackQuery?
    public var myChatMember: ChatMemberUpdated?

    public init(
        updateID: Int64, message: Message? = nil, editedMessage: Message? = nil,
        callbackQuery: CallbackQuery? = nil, myChatMember: ChatMemberUpdated? = nil
    ) {
        self.updateID = updateID
        self.message = message
        self.editedMessage = editedMessage
        self.callbackQuery = callbackQuery
        self.myChatMember = myChatMember
    }

    enum CodingKeys: String, CodingKey {
        case updateID = "update_id"
        case message
        case editedMessage = "edited_message"
        case callbackQuery = "callback_query"
        case myChatMember = "my_chat_member"
    }
}

/// One element of getUpdates' result: the update if it decoded, and always its id when it had
/// one, so a garbled update is skipped (and counted) without stalling the offset.
public struct ReceivedUpdate: Decodable, Sendable {
    public var updateID: Int64?
    public var update: Update?

    public init(updateID: Int64?, update: Update?) {
        self.updateID = updateID
        self.update = update
    }

    public init(from decoder: Decoder) throws {
        struct IDOnly: Decodable { var update_id: Int64? }
        updateID = (try? IDOnly(from: decoder))?.update_id
        update = try? Update(from: decoder)
    }
}

public struct InlineKeyboardButton: Codable, Equatable, Sendable {
    public var text: String
    /// Exactly one of the two: a button the bot hears about, or a link Telegram opens.
    public var callbackData: String?
    public var url: String?
    public init(text: String, callbackData: String) {
        self.text = text
        self.callbackData = callbackData
    }
    public init(text: String, url: String) {
        self.text = text
        self.url = url
    }
    enum CodingKeys: String, CodingKey {
        case text
        case callbackData = "callback_data"
        case url
    }
}

public struct InlineKeyboardMarkup: Codable, Equatable, Sendable {
    public var inlineKeyboard: [[InlineKeyboardButton]]
    public init(_ rows: [[InlineKeyboardButton]]) { inlineKeyboard = rows }
    enum CodingKeys: String, CodingKey { case inlineKeyboard = "inline_keyboard" }
}

public struct BotCommand: Codable, Equatable, Sendable {
    public var command: String
    public var description: String
    public init(command: String, description: String) {
        self.command = command
        self.description = description
    }
}

// MARK: - request bodies

public struct SendMessageRequest: Codable, Equatable, Sendable {
    public var chatID: Int64
    public var text: String
    public var parseMode: String?
    public var replyMarkup: InlineKeyboardMarkup?
    public var linkPreviewOptions: LinkPreviewOptions?

    public init(chatID: Int64, text: String, parseMode: String? = "HTML", replyMarkup: InlineKeyboardMarkup? = nil) {
        self.chatID = chatID
        self.text = text
        self.parseMode = parseMode
        self.replyMarkup = replyMarkup
        self.linkPreviewOptions = LinkPreviewOptions(isDisabled: true)
    }
    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id"
        case text
        case parseMode = "parse_mode"
        case replyMarkup = "reply_markup"
        case linkPreviewOptions = "link_preview_options"
    }
}

public struct LinkPreviewOptions: Codable, Equatable, Sendable {
    public var isDisabled: Bool
    enum CodingKeys: String, CodingKey { case isDisabled = "is_disabled" }
}

public struct EditMessageTextRequest: Codable, Equatable, Sendable {
    public var chatID: Int64
    public var messageID: Int64
    public var text: String
    public var parseMode: String?
    public var replyMarkup: InlineKeyboardMarkup?

    public init(
        chatID: Int64, messageID: Int64, text: String, parseMode: String? = "HTML",
        replyMarkup: InlineKeyboardMarkup? = nil
    ) {
        self.chatID = chatID
        self.messageID = messageID
        self.text = text
        self.parseMode = parseMode
        self.replyMarkup = replyMarkup
    }
    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id"
        case messageID = "message_id"
        case text
        case parseMode = "parse_mode"
        case replyMarkup = "reply_markup"
    }
}

public struct AnswerCallbackQueryRequest: Codable, Equatable, Sendable {
    public var callbackQueryID: String
    public var text: String?
    public init(callbackQueryID: String, text: String? = nil) {
        self.callbackQueryID = callbackQueryID
        self.text = text
    }
    enum CodingKeys: String, CodingKey {
        case callbackQueryID = "callback_query_id"
        case text
    }
}

public struct SendPhotoRequest: Codable, Equatable, Sendable {
    public var chatID: Int64
    /// A file_id from an earlier upload (uploads go as multipart instead).
    public var photo: String
    public var caption: String?
    public var parseMode: String?
    public init(chatID: Int64, photo: String, caption: String? = nil) {
        self.chatID = chatID
        self.photo = photo
        self.caption = caption
        self.parseMode = caption == nil ? nil : "HTML"
    }
    enum CodingKeys: String, CodingKey {
        case chatID = "chat_id"
        case photo, caption
        case parseMode = "parse_mode"
    }
}

/// The Bot API's response envelope.
public struct APIResponse<Result: Decodable>: Decodable {
    public var ok: Bool
    public var result: Result?
    public var description: String?
    public var errorCode: Int?
    public var parameters: ResponseParameters?
    enum CodingKeys: String, CodingKey {
        case ok, result, description
        case errorCode = "error_code"
        case parameters
    }
}

public struct ResponseParameters: Codable, Sendable {
    public var retryAfter: Int?
    public var migrateToChatID: Int64?
    enum CodingKeys: String, CodingKey {
        case retryAfter = "retry_after"
        case migrateToChatID = "migrate_to_chat_id"
    }
}
