import Foundation
import JSONCoding

/// A getUpdates answer read without `JSONDecoder`: the page is parsed once (`JSONValue`) and
/// mapped by hand: Codable's keyed containers cost noticeably on a busy page (100 taps, each
/// with the message it came from; figures in docs/performance.md).
///
/// Only a page it can map completely is returned: an error envelope, a field of an unexpected
/// type, a number that is not an exact integer, any update it cannot read — the whole page reads
/// as nil and `JSONDecoder` takes it, so a garbled update is still skipped with its id exactly as
/// before (`ReceivedUpdate.init(from:)`). `UpdateParsingTests` checks both readings agree.
enum UpdatePage {
    static func read(_ body: Data) -> [ReceivedUpdate]? {
        guard let page = try? JSONValue.parse(body), page["ok"]?.bool == true, let result = page["result"]?.array else {
            return nil
        }
        var updates: [ReceivedUpdate] = []
        updates.reserveCapacity(result.count)
        for value in result {
            guard let fields = value.object, let update = try? Update(fields) else { return nil }
            updates.append(ReceivedUpdate(updateID: update.updateID, update: update))
        }
        return updates
    }
}

/// Something the hand mapping does not take: the page goes to `JSONDecoder`.
struct NotMapped: Error {}

private typealias Fields = [String: JSONValue]

extension Fields {
    fileprivate func int64(_ key: String) throws -> Int64 {
        guard let value = self[key] else { throw NotMapped() }
        return try value.exactInt64()
    }
    /// Absent or null is nil; a value `read` can't read is not mapped (Codable would throw).
    fileprivate func optional<T>(_ key: String, _ read: (JSONValue) -> T?) throws -> T? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let v = read(value) else { throw NotMapped() }
        return v
    }
    fileprivate func required<T>(_ key: String, _ read: (JSONValue) -> T?) throws -> T {
        guard let v = try optional(key, read) else { throw NotMapped() }
        return v
    }
    fileprivate func optionalString(_ key: String) throws -> String? { try optional(key, \.string) }
    fileprivate func string(_ key: String) throws -> String { try required(key, \.string) }
    fileprivate func optionalObject(_ key: String) throws -> Fields? { try optional(key, \.object) }
    fileprivate func object(_ key: String) throws -> Fields { try required(key, \.object) }
    /// `Present`: any value but null says the field is there.
    fileprivate func present(_ key: String) -> Present? {
        guard let value = self[key], !value.isNull else { return nil }
        return Present()
    }
}

extension JSONValue {
    /// Integers within 2^53 only: the parser keeps numbers as Double, and a larger id (Telegram
    /// promises none) must not come out rounded.
    fileprivate func exactInt64() throws -> Int64 {
        guard let n = double, n.rounded() == n, abs(n) < 9_007_199_254_740_992 else { throw NotMapped() }
        return Int64(n)
    }
}

extension Update {
    fileprivate init(_ f: Fields) throws {
        self.init(
            updateID: try f.int64("update_id"),
            message: try f.optionalObject("message").map(Message.init),
            editedMessage: try f.optionalObject("edited_message").map(Message.init),
            callbackQuery: try f.optionalObject("callback_query").map(CallbackQuery.init),
            myChatMember: try f.optionalObject("my_chat_member").map(ChatMemberUpdated.init))
    }
}

extension User {
    fileprivate init(_ f: Fields) throws {
        guard let isBot = f["is_bot"]?.bool else { throw NotMapped() }
        self.init(
            id: try f.int64("id"), isBot: isBot, firstName: try f.string("first_name"),
            lastName: try f.optionalString("last_name"),
            username: try f.optionalString("username"), languageCode: try f.optionalString("language_code"))
    }
}

extension Chat {
    fileprivate init(_ f: Fields) throws {
        self.init(
            id: try f.int64("id"), type: try f.string("type"), title: try f.optionalString("title"),
            firstName: try f.optionalString("first_name"))
    }
}

extension Message {
    fileprivate init(_ f: Fields) throws {
        self.init(
            messageID: try f.int64("message_id"), from: try f.optionalObject("from").map(User.init),
            chat: try Chat(f.object("chat")), date: try f.int64("date"), text: try f.optionalString("text"))
        if let photo = f["photo"], !photo.isNull {
            // Only a plain list of sizes; anything else is the decoder's to judge.
            guard let sizes = photo.array else { throw NotMapped() }
            self.photo = try sizes.map { value in
                guard let size = value.object else { throw NotMapped() }
                return PhotoSize(
                    fileID: try size.string("file_id"), fileUniqueID: try size.optionalString("file_unique_id"),
                    width: try size["width"].flatMap { $0.isNull ? nil : Int(try $0.exactInt64()) },
                    height: try size["height"].flatMap { $0.isNull ? nil : Int(try $0.exactInt64()) })
            }
        }
        sticker = f.present("sticker")
        voice = f.present("voice")
        video = f.present("video")
        videoNote = f.present("video_note")
        audio = f.present("audio")
        document = f.present("document")
        animation = f.present("animation")
        location = f.present("location")
        contact = f.present("contact")
        poll = f.present("poll")
        caption = try f.optionalString("caption")
    }
}

extension CallbackQuery {
    fileprivate init(_ f: Fields) throws {
        self.init(
            id: try f.string("id"), from: try User(f.object("from")),
            message: try f.optionalObject("message").map(Message.init),
            data: try f.optionalString("data"))
    }
}

extension ChatMemberUpdated {
    fileprivate init(_ f: Fields) throws {
        let member = try f.object("new_chat_member")
        self.init(
            chat: try Chat(f.object("chat")), from: try User(f.object("from")), date: try f.int64("date"),
            newChatMember: ChatMember(status: try member.string("status"), user: try User(member.object("user"))))
    }
}
