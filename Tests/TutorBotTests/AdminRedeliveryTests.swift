import Foundation
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

/// Issue #39, item 3: admin commands are answered before their batch commits, so a batch that
/// Telegram delivers again (the process died before the offset was saved) ran them twice: a
/// second broadcast draft, and "Already sent" for the admin's own Send.
@Suite struct AdminRedeliveryTests {
    static let admin: Int64 = 900

    func bot() throws -> Bot {
        var config = Config(
            token: "0:test", apiBase: "http://127.0.0.1:9", databasePath: ":memory:",
            banksDirectory: "\(repoRoot)/Banks", promptsDirectory: "\(repoRoot)/Prompts/en")
        config.fakeNow = Date(timeIntervalSince1970: 1_795_000_000)
        config.admins = [Self.admin]
        return try Bot.build(config, transport: ConsoleTransport(input: { nil }, write: { _ in }))
    }

    static func say(_ text: String, update: Int64) -> ReceivedUpdate {
        let message = TelegramAPI.Message(
            messageID: update, from: User(id: admin, firstName: "Ada"),
            chat: Chat(id: admin, type: "private"), date: 0, text: text)
        return ReceivedUpdate(updateID: update, update: Update(updateID: update, message: message))
    }

    static func tap(_ data: String, update: Int64) -> ReceivedUpdate {
        let message = TelegramAPI.Message(
            messageID: 1, from: User(id: admin, firstName: "Ada"),
            chat: Chat(id: admin, type: "private"), date: 0, text: "preview")
        let query = CallbackQuery(
            id: "cb\(update)", from: User(id: admin, firstName: "Ada"), message: message, data: data)
        return ReceivedUpdate(updateID: update, update: Update(updateID: update, callbackQuery: query))
    }

    /// The admin's messages in the outbox (request bodies), oldest first.
    func texts(_ bot: Bot) throws -> [String] {
        try bot.store.rows("SELECT body FROM outbox WHERE chat_id = \(Self.admin) ORDER BY id").compactMap {
            $0["body"]
        }
    }

    @Test func aBroadcastDeliveredTwiceMakesOneDraftAndSendsOnce() throws {
        let bot = try bot()
        _ = try bot.process([Self.say("/start", update: 1), Self.say("Texas", update: 2)])
        let draft = [Self.say("/broadcast texas New signs are in", update: 3)]
        _ = try bot.process(draft)
        _ = try bot.process(draft)  // the same batch again, as after a crash before its commit
        let drafts = try bot.store.rows("SELECT id, status FROM broadcast")
        #expect(drafts.count == 1, "\(drafts)")
        let id = try #require(drafts.first?["id"])
        let previews = try texts(bot).filter { $0.contains("bs:\(id)") }
        #expect(previews.count == 2 && previews[0] == previews[1], "the same preview, with the same Send button")

        let send = [Self.tap("9bs:\(id)", update: 4)]
        _ = try bot.process(send)
        _ = try bot.process(send)
        #expect(try bot.store.rows("SELECT status FROM broadcast WHERE id = \(id)").first?["status"] == "sending")
        // Each delivery answers as the first did: the progress message (the tap's "Sending…" toast
        // is sent from memory), never the "Already sent or cancelled" toast alone.
        let progress = try bot.store.rows("SELECT id FROM outbox WHERE save_tag = 'bc\(id)'")
        #expect(progress.count == 2, "\(progress)")
        // A different tap on the same Send (a second press) still is.
        let outcome = try bot.store.setBroadcastStatus(Int64(id)!, from: "draft", to: "sending", updateID: 5)
        #expect(!outcome)
    }

    /// #39 item 12: an admin's /help lists the admin commands (a learner's doesn't), and the first
    /// broadcast sent is #1 however many drafts were cancelled before it.
    @Test func anAdminsHelpListsTheAdminCommandsAndBroadcastsCountOnlySentOnes() throws {
        let bot = try bot()
        _ = try bot.process([Self.say("/start", update: 1), Self.say("Texas", update: 2), Self.say("/help", update: 3)])
        let help = try #require(try texts(bot).last)
        #expect(help.contains("/broadcast TX") && help.contains("/reload") && help.contains("/stats"), "\(help)")
        let learnerHelp = bot.renderer.items(for: [.send(Reply(.help))], chatID: Self.admin + 1).outbox.first
        #expect(learnerHelp.map { String(decoding: $0.body, as: UTF8.self).contains("/broadcast") } == false)

        _ = try bot.process([Self.say("/broadcast texas First try", update: 4)])
        let first = try #require(try bot.store.rows("SELECT id FROM broadcast").last?["id"])
        _ = try bot.process([Self.tap("9bc:\(first)", update: 5)])
        #expect(try texts(bot).last?.contains("Draft cancelled") == true)
        _ = try bot.process([Self.say("/broadcast texas Second try", update: 6)])
        let second = try #require(try bot.store.rows("SELECT id FROM broadcast ORDER BY id").last?["id"])
        #expect(second != first)
        _ = try bot.process([Self.tap("9bs:\(second)", update: 7)])
        let progress = try #require(
            try bot.store.rows("SELECT body FROM outbox WHERE save_tag = 'bc\(second)'").first?["body"])
        #expect(progress.contains("Broadcast #1"), "\(progress)")
    }
}
