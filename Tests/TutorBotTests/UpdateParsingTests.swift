import Foundation
import Testing
import TutorCore

@testable import TelegramAPI
@testable import TutorBot

/// Real-shaped Bot API JSON (Tests/TutorBotTests/Fixtures/getUpdates.json): every kind we use,
/// fields and values Telegram may add later, and garbage, decoded and parsed without a crash.
@Suite struct UpdateParsingTests {
    let received: [ReceivedUpdate]

    init() throws {
        let url = try #require(
            Bundle.module.url(forResource: "getUpdates", withExtension: "json", subdirectory: "Fixtures"))
        let http = HTTPResult(status: 200, body: try Data(contentsOf: url))
        received = try BotAPI.decode(http, as: [ReceivedUpdate].self)
    }

    @Test func everyUpdateDecodesOrIsSkippedWithItsID() {
        #expect(received.count == 11)
        #expect(received.compactMap(\.updateID) == Array(700001...700010), "the last one has no update_id at all")
        #expect(
            received.filter { $0.update == nil }.map(\.updateID) == [700008, nil], "no chat / no id: garbled, skipped")
    }

    @Test func eachKindBecomesTheRightEvent() {
        let events = received.compactMap(\.update).map(UpdateParser.parse)
        let sender = Sender(userID: 42, firstName: "Maya", languageCode: "es")
        #expect(
            events[0]
                == ParsedUpdate(chatID: 42, sender: sender, isGroup: false, event: .commandSent(.start, payload: "CA")))
        #expect(
            events[1]?.event
                == .buttonTapped(
                    callbackID: "4382bfdwdsb323b2d9", action: .answer(quiz: 1, question: 0, option: 2), messageID: 12))
        #expect(events[2]?.event == .unsupportedContentSent(kind: "sticker"))
        #expect(events[3]?.event == .messageEdited)
        #expect(events[4]?.event == .botBlocked)
        #expect(events[5] == nil, "a channel post is not for us")
        #expect(
            events[6]?.event == .textSent("b") && events[6]?.isGroup == true,
            "an unknown chat type is treated as not private")
        #expect(events[7]?.isGroup == true && events[7]?.event == .commandSent(.quiz, payload: nil))
        #expect(
            events[8]?.event == .buttonTapped(callbackID: "cbq-forged", action: nil, messageID: 12),
            "forged data decodes to no action")
    }

    /// The page without its two garbled updates: every kind we use, fields Telegram may add, read
    /// by the decoder whole; an id past 2^53 kept exact.
    @Test func theDecoderReadsACleanPageWhole() throws {
        let url = try #require(
            Bundle.module.url(forResource: "getUpdates", withExtension: "json", subdirectory: "Fixtures"))
        let fixture = try Data(contentsOf: url)
        var page = try #require(JSONSerialization.jsonObject(with: fixture) as? [String: Any])
        let all = try #require(page["result"] as? [Any])
        page["result"] = all.enumerated().filter { received[$0.offset].update != nil }.map(\.element)
        let clean = try JSONSerialization.data(withJSONObject: page)
        let updates = try BotAPI.decode(HTTPResult(status: 200, body: clean), as: [ReceivedUpdate].self)
        #expect(updates.count == 9 && updates.allSatisfy { $0.update != nil })
        let tap = #"{"id":"q1","from":{"id":7,"is_bot":false,"first_name":"Al"},"data":"x"}"#
        let big = try BotAPI.decode(
            HTTPResult(
                status: 200,
                body: Data(#"{"ok":true,"result":[{"update_id":9007199254740993,"callback_query":\#(tap)}]}"#.utf8)),
            as: [ReceivedUpdate].self)
        #expect(big.first?.updateID == 9_007_199_254_740_993)
    }

    @Test func errorsMapToTypedCases() throws {
        func decode(_ status: Int, _ json: String) -> Error? {
            do {
                _ = try BotAPI.decode(HTTPResult(status: status, body: Data(json.utf8)), as: Bool.self)
                return nil
            } catch { return error }
        }
        #expect(
            decode(
                429,
                #"{"ok":false,"error_code":429,"description":"Too Many Requests: retry after 7","parameters":{"retry_after":7}}"#
            ) as? BotAPIError == .retryAfter(seconds: 7))
        #expect(
            decode(403, #"{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}"#)
                as? BotAPIError == .blocked("Forbidden: bot was blocked by the user"))
        #expect(
            decode(
                409, #"{"ok":false,"error_code":409,"description":"Conflict: terminated by other getUpdates request"}"#)
                as? BotAPIError == .conflict("Conflict: terminated by other getUpdates request"))
        #expect(
            decode(401, #"{"ok":false,"error_code":401,"description":"Unauthorized"}"#) as? BotAPIError == .unauthorized
        )
        #expect(
            decode(502, "<html>Bad Gateway</html>") as? BotAPIError == .server(code: 502, description: "non-JSON body"))
        #expect(decode(200, "{not json") as? BotAPIError == .malformedResponse("HTTP 200, 9 bytes"))
        let notModified = decode(
            400,
            #"{"ok":false,"error_code":400,"description":"Bad Request: message is not modified: specified new message content and reply markup are exactly the same"}"#
        )
        #expect(notModified.map(BotAPI.isNotModified) == true)
    }
}
