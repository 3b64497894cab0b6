import FakeBotAPI
import Foundation
import Testing
import TutorCore

@testable import TutorBot

/// Issue #25 end to end, over real HTTP: Maya challenges a friend by link, Jordan (new to the bot)
/// opens it, plays the same ten, both see the scores, and they are friends; the link works once.
@Suite(.serialized) struct ChallengeEndToEndTests {
    let maya: Int64 = 6001, jordan: Int64 = 6002

    /// Plays the open challenge in `chat`: taps A on every question, then Next / See results.
    func play(_ h: Harness, _ chat: Int64) throws {
        for n in 1...10 {
            #expect(h.waitForText(chat, "Q\(n)/10"), "question \(n) arrives")
            let question = try #require(h.fake.messages(chat: chat).last { $0.text.contains("Q\(n)/10") })
            #expect(h.fake.press("A", chat: chat))
            #expect(
                h.fake.wait {
                    h.fake.messages(chat: chat).contains { $0.messageID == question.messageID && $0.text.contains("📘") }
                })
            #expect(h.fake.press(n == 10 ? "See results" : "Next", chat: chat))
        }
    }

    /// 11 pm in Texas (2026-11-27 05:00 UTC): Maya's quiet hours, until 8 am (14:00 UTC).
    static let lateEveningInTexas = Date(timeIntervalSince1970: 1_795_755_600)

    @Test func aFriendOpensTheLinkPlaysTheSameTenAndBothHearTheScore() async throws {
        let h = try Harness()
        h.config.fakeNow = Self.lateEveningInTexas
        h.fake.names.withLock { $0 = [maya: "Maya Lee", jordan: "Jordan"] }
        try h.start()
        h.fake.say("/start", chat: maya)
        #expect(h.waitForText(maya, "Which state"))
        #expect(h.fake.press("Texas", chat: maya))
        #expect(h.waitForText(maya, "Questions seen"))
        #expect(h.fake.press("⚔️ Challenge a friend", chat: maya))
        #expect(h.waitForText(maya, "Play these 10 questions first"))
        try play(h, maya)
        #expect(h.waitForText(maya, "Now send the challenge"))
        let ready = try #require(h.fake.messages(chat: maya).last { $0.text.contains("Now send the challenge") })
        // The link: the bot's username from getMe, "c" and 22 base64url characters; a share button opens Telegram's
        // share sheet.
        let link = try #require(
            ready.text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
                .first { $0.hasPrefix("https://t.me/PermitReadyBot?start=c") })
        let payload = String(link.dropFirst("https://t.me/PermitReadyBot?start=".count))
        #expect(payload.count == 23 && Challenge.token(fromPayload: payload) != nil, "\(payload)")
        let share = try #require(ready.buttons.joined().first { $0.data.hasPrefix("url:") })
        #expect(
            share.data.hasPrefix(
                "url:https://t.me/share/url?url=https%3A%2F%2Ft.me%2FPermitReadyBot%3Fstart%3D\(payload)&text="))

        // Maya put her phone down an hour ago (news at night waits only for someone not using the bot).
        let store = try #require(h.bot?.store)
        try store.execute("UPDATE learner SET last_active_at = last_active_at - 3600 WHERE chat_id = ?", [maya])
        // Jordan has never used the bot: the link is their first message.
        h.fake.say("/start \(payload)", chat: jordan)
        #expect(h.waitForText(jordan, "Maya challenged you!"), "first name only")
        #expect(
            h.fake.messages(chat: jordan).first?.text.contains("not affiliated") == true,
            "someone new meets the bot (welcome and disclaimer) before the challenge")
        #expect(!h.fake.messages(chat: jordan).contains { $0.text.contains("Lee") })
        try play(h, jordan)
        #expect(h.waitForText(jordan, "Maya "))
        #expect(
            h.waitForText(jordan, "· you"),
            "rejected: \(h.fake.rejections); sent: \(h.fake.messages(chat: jordan).suffix(2).map(\.text))")
        let result = try #require(h.fake.messages(chat: jordan).last { $0.text.contains("· you") })
        #expect(result.text.contains("/10 · you ") && result.text.contains("friends on PermitReady now"))
        #expect(result.text.contains("friends on PermitReady now"))
        #expect(h.fake.press("📍 Pick my state", chat: jordan))
        #expect(h.waitForText(jordan, "Which state"), "a newcomer goes on to pick a state")
        // Maya hears about it once, but not at 11 pm her time: the news waits for 8 am (and her
        // own replies meanwhile are not held up behind it, below). Morning comes: it is sent.
        let morning = Self.lateEveningInTexas.addingTimeInterval(9 * 3600).timeIntervalSince1970
        #expect(
            h.fake.wait {
                (try? store.rows("SELECT not_before FROM outbox WHERE chat_id = ? AND status = 'pending'", [maya]))?
                    .first?["not_before"].flatMap(Double.init) == morning
            })
        #expect(!h.fake.messages(chat: maya).contains { $0.text.contains("on your challenge") })
        #expect(h.fake.press("🏠 Home", chat: maya))
        #expect(
            h.fake.wait { h.fake.messages(chat: maya).filter { $0.text.contains("Questions seen") }.count >= 2 },
            "Maya's replies flow")
        try store.execute("UPDATE outbox SET not_before = 0 WHERE chat_id = ? AND status = 'pending'", [maya])
        h.bot?.sender.wakeSoon()
        #expect(h.waitForText(maya, "on your challenge"))
        let news = h.fake.messages(chat: maya).filter { $0.text.contains("on your challenge") }
        #expect(news.count == 1 && news.first?.text.contains("Jordan") == true)

        #expect(
            h.fake.wait { (try? store.friends(of: maya)) == [jordan] && (try? store.friends(of: jordan)) == [maya] },
            "both sides are friends")
        // Maya's Friends screen ranks this week's XP and can remove Jordan (both sides).
        #expect(h.fake.press("🏠 Home", chat: maya))
        #expect(
            h.fake.wait {
                h.fake.messages(chat: maya).last?.buttons.joined().contains { $0.text == "👥 Friends" } == true
            })
        #expect(h.fake.press("👥 Friends", chat: maya))
        #expect(h.waitForText(maya, "Friends' league · this week"))
        let league = try #require(h.fake.messages(chat: maya).last { $0.text.contains("Friends' league · this week") })
        #expect(league.text.contains("Jordan") && league.text.contains("Maya (you)") && league.text.contains("XP"))
        #expect(h.fake.press("✖ Remove Jordan", chat: maya))
        #expect(h.waitForText(maya, "won't be told"), "removing asks first")
        #expect((try? store.friends(of: jordan)) == [maya])
        #expect(h.fake.press("✖ Yes, remove Jordan", chat: maya))
        #expect(h.waitForText(maya, "Removed Jordan"))
        #expect(h.fake.wait { (try? store.friends(of: jordan)) == [] }, "removed on both sides")
        // Once per friend: the same link again gets a friendly line, not a second game.
        h.fake.say("/start \(payload)", chat: jordan)
        #expect(h.waitForText(jordan, "already played this challenge"))
        // A forged link of the right shape gets the same kind of line.
        h.fake.say("/start c" + String(repeating: "Z", count: 22), chat: jordan)
        #expect(h.waitForText(jordan, "That challenge link didn't work"))
        // "Challenge Maya back" under Jordan's result makes a challenge of his own (the edge draws
        // its token as for any challenge: it once answered "something went wrong on our side").
        #expect(h.fake.press("⚔️ Challenge Maya back", chat: jordan))
        #expect(h.waitForText(jordan, "Play these 10 questions first"))
        #expect(!h.fake.messages(chat: jordan).contains { $0.text.contains("went wrong") })
        #expect(h.fake.wait { h.fake.unansweredCallbacks.isEmpty }, "every button press is acknowledged")
        #expect(h.fake.rejections.isEmpty, "the bot sent nothing Telegram would reject: \(h.fake.rejections)")
        await h.kill()
    }
}
