import Foundation
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

/// Friends are asked for by the reducer, not guessed by the edge (#44; #43 item 14: home opened by
/// typing `home` dropped the league line the button shows).
@Suite struct FriendsLookupTests {
    let sam: Int64 = 61
    let riley: Int64 = 62

    func bot() throws -> Bot {
        var config = Config(
            token: "0:test", apiBase: "http://127.0.0.1:9", databasePath: ":memory:",
            banksDirectory: "\(repoRoot)/Banks", promptsDirectory: "\(repoRoot)/Prompts/en")
        config.fakeNow = Date(timeIntervalSince1970: 1_795_000_000)
        return try Bot.build(config, transport: ConsoleTransport(input: { nil }, write: { _ in }))
    }

    func say(_ text: String, update: Int64, chat: Int64) -> ReceivedUpdate {
        let message = TelegramAPI.Message(
            messageID: update, from: User(id: chat, firstName: chat == sam ? "Sam" : "Riley"),
            chat: Chat(id: chat, type: "private"), date: 0, text: text)
        return ReceivedUpdate(updateID: update, update: Update(updateID: update, message: message))
    }

    /// Sam and Riley start in Texas, and are friends (both ways) from now.
    func samAndRileyAreFriendsInTexas() throws -> Bot {
        let bot = try bot()
        _ = try bot.process([
            say("/start", update: 1, chat: sam), say("Texas", update: 2, chat: sam),
            say("/start", update: 3, chat: riley), say("Texas", update: 4, chat: riley),
        ])
        let since = bot.clock.now().timeIntervalSince1970
        try bot.store.execute(
            "INSERT INTO friendship(chat_id, friend_chat_id, since) VALUES (?, ?, ?), (?, ?, ?)",
            [sam, riley, since, riley, sam, since])
        return bot
    }

    func lastText(_ bot: Bot, _ chat: Int64) throws -> String {
        try bot.store.rows("SELECT body FROM outbox WHERE chat_id = \(chat) ORDER BY id DESC LIMIT 1").first?["body"]
            ?? ""
    }

    @Test func homeTypedMidQuizShowsTheFriendsLeagueLikeTheButton() throws {
        let bot = try samAndRileyAreFriendsInTexas()
        bot.forget(chatID: sam)
        _ = try bot.process([say("/quiz", update: 5, chat: sam)])
        _ = try bot.process([say("A", update: 6, chat: sam)])
        _ = try bot.process([say("home", update: 7, chat: sam)])
        let home = try lastText(bot, sam)
        #expect(home.contains("Friends' league"), "\(home.prefix(400))")
    }

    /// A screen the edge knows nothing about gets friends when it reads them: the edge hands a
    /// look-up, and an event whose screen shows no friends never reads them.
    @Test func theReducerAsksForFriendsOnlyWhenAScreenNeedsThem() throws {
        let (banks, _) = try BankFiles.load("\(repoRoot)/Banks")
        let chat = TestChat(banks: try #require(banks), chatID: 63, name: "Ana")
        _ = chat.reduce(.commandSent(.start, payload: "TX"))
        _ = chat.tap(.menu(.quickQuiz))
        func reduce(_ event: Event) -> Lookup<[FriendSummary]?> {
            let lookup = Lookup<[FriendSummary]?> { [] }
            var ctx = DialogueContext(banks: chat.banks, now: chat.now, seed: 7)
            ctx.friendsLookup = lookup
            (chat.state, _) = Dialogue.reduce(chat.state, event, ctx)
            return lookup
        }
        let quiz = try #require(chat.state.session.quiz)
        #expect(
            !reduce(
                .buttonTapped(callbackID: "a", action: .answer(quiz: quiz.id, question: 0, option: 0), messageID: 1)
            ).wasRead,
            "an answer shows no friends: nothing read")
        #expect(reduce(.textSent("home")).wasRead, "home shows the league: friends read")
    }

    /// #43 item 14: friends see each other's Daily 5 scores at once, however few of the state
    /// have played (the anonymous comparison still waits for 20).
    @Test func friendsSeeEachOthersDaily5ScoresAtOnce() throws {
        let bot = try samAndRileyAreFriendsInTexas()
        var update: Int64 = 10
        func playDaily(_ chat: Int64) throws -> String {
            update += 1
            _ = try bot.process([say("daily 5", update: update, chat: chat)])
            for _ in 0..<5 {
                update += 2
                _ = try bot.process([say("A", update: update, chat: chat)])
                _ = try bot.process([say("next", update: update + 1, chat: chat)])
            }
            return try bot.store.rows(
                "SELECT body FROM outbox WHERE chat_id = \(chat) AND body LIKE '%Daily 5:%' ORDER BY id DESC LIMIT 1"
            )
            .first?["body"] ?? ""
        }
        let rileys = try playDaily(riley)
        #expect(
            rileys.contains("Daily 5:") && !rileys.contains("Friends today"),
            "nobody else has played: \(rileys.prefix(300))")
        let sams = try playDaily(sam)
        #expect(sams.contains("Friends today: Riley "), "\(sams.prefix(400))")
    }

    /// #43 item 14: "Riley is 972 XP ahead — a quiz is worth about 100 XP" made a behind friend
    /// stop; far behind, Friends points at something winnable today (the same Daily 5).
    @Test func aFriendFarBehindIsShownSomethingWinnable() throws {
        let bot = try samAndRileyAreFriendsInTexas()
        try bot.store.execute(
            "UPDATE learner SET week_xp = 1000, xp_week = ? WHERE chat_id = \(riley)",
            [League.week(of: bot.clock.now()).description])
        bot.forget(chatID: sam)
        _ = try bot.process([say("A quiz first", update: 5, chat: sam), say("friends", update: 6, chat: sam)])
        let screen = try lastText(bot, sam)
        #expect(
            screen.contains("Riley is 1000 XP ahead") && screen.contains("beat Riley's score"), "\(screen.prefix(500))")
        #expect(screen.contains("Daily 5"))
        // A friend in another state gets another five: no "beat Riley's score" (a play-tester's
        // Colorado Riley was pointed at a Kentucky friend's Daily 5).
        try bot.store.execute("UPDATE learner SET state_code = 'CO' WHERE chat_id = \(riley)")
        _ = try bot.process([say("friends", update: 7, chat: sam)])
        let across = try lastText(bot, sam)
        #expect(across.contains("Riley is 1000 XP ahead") && !across.contains("beat Riley's score"), "\(across.prefix(500))")
    }
}
