import Foundation
import Testing

@testable import TelegramAPI

/// The replies read without a decoder give what the full decode gives, and anything unusual is
/// left to the full decode (nil), never misread.
@Suite struct QuickReplyTests {
    @Test func theUsualRepliesAreReadAndEverythingElseIsLeftToTheDecoder() throws {
        func read(_ s: String) -> QuickReply.Result? { QuickReply.read(Data(s.utf8)) }
        // Telegram's order, and the fake's (keys in any order, message_id anywhere at the top of result).
        #expect(read(#"{"ok":true,"result":true}"#) == .done)
        #expect(
            read(
                #"{"ok":true,"result":{"message_id":4815,"from":{"id":1,"is_bot":true,"first_name":"P"},"chat":{"id":9,"type":"private"},"date":1,"text":"a \"quoted\" } { , [ text"}}"#
            ) == .message(id: 4815))
        #expect(
            read(
                #"{ "result" : { "chat" : {"id": -100123, "type":"supergroup"}, "text": "x\\", "entities": [{"offset":0,"length":1,"type":"bold"}], "message_id" : 77 }, "ok" : true }"#
            ) == .message(id: 77))
        // Left to the decoder: errors, other shapes, odd numbers, broken bodies.
        for body in [
            #"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 5","parameters":{"retry_after":5}}"#,
            #"{"ok":true,"result":{"chat":{"message_id":5}}}"#, #"{"ok":true,"result":[]}"#, #"{"ok":true}"#,
            #"{"ok":true,"result":{"message_id":1.5}}"#, #"{"ok":true,"result":{"message_id":12345678901234567890}}"#,
            #"{"ok":true,"result":{"message_id":5"#, #"{"ok":true,"result":{"message_id":5}"#, "", "<html>502</html>",
            #"{"o\u006b":true,"result":true}"#,
        ] {
            #expect(read(body) == nil, "\(body)")
        }
        // Whatever the quick read gives, the full decode agrees.
        let sample = Data(
            #"{"ok":true,"result":{"message_id":4815,"chat":{"id":9,"type":"private"},"date":1,"text":"t"}}"#.utf8)
        #expect(try BotAPI.decode(HTTPResult(status: 200, body: sample), as: SentMessageID.self).messageID == 4815)
    }
}
