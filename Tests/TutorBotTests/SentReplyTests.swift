import Foundation
import Testing

@testable import TelegramAPI

/// A send's answer, read by the decoder: the new message's id, nil for a `true` result, and the
/// Bot API's error or a clear failure for anything else — never a misread id.
@Suite struct SentReplyTests {
    @Test func aSendsAnswerGivesTheMessageIDOrAClearError() throws {
        func id(_ s: String, status: Int = 200) throws -> Int64? {
            try BotAPI.sentMessageID(HTTPResult(status: status, body: Data(s.utf8)))
        }
        #expect(try id(#"{"ok":true,"result":true}"#) == nil)
        #expect(
            try id(
                #"{"ok":true,"result":{"message_id":4815,"from":{"id":1,"is_bot":true,"first_name":"P"},"chat":{"id":9,"type":"private"},"date":1,"text":"a \"quoted\" } { , [ text"}}"#
            ) == 4815)
        #expect(
            try id(
                #"{ "result" : { "chat" : {"id": -100123, "type":"supergroup"}, "text": "x\\", "message_id" : 77 }, "ok" : true }"#
            ) == 77)
        #expect(throws: BotAPIError.retryAfter(seconds: 5)) {
            try id(
                #"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 5","parameters":{"retry_after":5}}"#,
                status: 429)
        }
        for broken in [#"{"ok":true,"result":{"message_id":5"#, "", "<html>502</html>"] {
            #expect(throws: BotAPIError.self, "\(broken)") { try id(broken, status: 502) }
        }
    }
}
