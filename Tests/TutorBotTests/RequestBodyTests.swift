import Foundation
import JSONCoding
import TelegramAPI
import Testing
import TutorCore

@testable import TutorBot

/// The request bodies written field by field (`JSONFieldWriter`) against the encoder they replace.
@Suite struct RequestBodyTests {
    /// The hand-written request bodies are byte for byte what the encoder writes for them.
    @Test func handWrittenRequestBodiesMatchTheEncoder() throws {
        let encoder = StreamingJSONEncoder()
        let keyboard = InlineKeyboardMarkup([
            [
                InlineKeyboardButton(text: "A", callbackData: "ans:1:A"),
                InlineKeyboardButton(text: "B \"quoted\"", callbackData: "x/y"),
            ],
            [InlineKeyboardButton(text: "🏠 Home", callbackData: "menu:home")],
        ])
        let texts = [
            "", "plain", "<b>Q1/10</b> · Signs\n\nWhat does a \"yield\" sign mean?\t\\ a/b ❤️🤍",
            "control \u{01}\u{1F} é ü 日本",
        ]
        for text in texts {
            for markup in [nil, keyboard, InlineKeyboardMarkup([])] {
                let send = SendMessageRequest(chatID: -1_001_234_567_890, text: text, replyMarkup: markup)
                #expect(send.json == (try encoder.encode(send)), "\(text) \(String(describing: markup))")
                var plain = send
                plain.parseMode = nil
                plain.linkPreviewOptions = nil
                #expect(plain.json == (try encoder.encode(plain)))
                let edit = EditMessageTextRequest(
                    chatID: 42, messageID: 9_007_199_254_740_993, text: text, replyMarkup: markup)
                #expect(edit.json == (try encoder.encode(edit)))
                // An edit queued by tag (message_id 0) gets its id spliced in: the same bytes as encoding it with the
                // id.
                for chat: Int64 in [42, -1_001_234_567_890] {
                    let queued = EditMessageTextRequest(chatID: chat, messageID: 0, text: text, replyMarkup: markup)
                    var sent = queued
                    sent.messageID = 9_007_199_254_740_993
                    #expect(
                        EditMessageTextRequest.body(queued.json, chatID: chat, messageID: sent.messageID)
                            == (try encoder.encode(sent)))
                    #expect(
                        EditMessageTextRequest.body(sent.json, chatID: chat, messageID: 5) == nil,
                        "only a body still waiting for its id")
                }
            }
            let tap = AnswerCallbackQueryRequest(callbackQueryID: "4382bfdwdsb323b2d9", text: text)
            #expect(tap.json == (try encoder.encode(tap)))
        }
        let silent = AnswerCallbackQueryRequest(callbackQueryID: "1")
        #expect(silent.json == (try encoder.encode(silent)))
        let decoded = try JSONDecoder().decode(
            SendMessageRequest.self, from: SendMessageRequest(chatID: 7, text: "t", replyMarkup: keyboard).json)
        #expect(decoded == SendMessageRequest(chatID: 7, text: "t", replyMarkup: keyboard))
    }
}
