import Foundation
import TelegramAPI
import TutorCore
import TutorStore

/// The template context of a broadcast note (Prompts/broadcast.mustache).
public struct BroadcastNote: Sendable {
    public var text: String
    public init(text: String) { self.text = text }
}

/// Admin commands for the Telegram ids in PERMITREADY_ADMINS: /reload, /stats, /broadcast.
/// Anyone else who types them gets the ordinary "didn't catch that" (no hint they exist).
/// Admin work is I/O (files, statistics, thousands of learners), so it lives here at the edge,
/// not in the pure dialogue.
struct AdminDesk {
    static let commands: Set<String> = ["reload", "stats", "broadcast"]
    /// Admin buttons' callback data starts with this (the dialogue's start with "1").
    static let callbackPrefix = "9"

    let bot: Bot
    var prompts: Prompts { bot.renderer.prompts }

    func reply(_ chatID: Int64, _ text: String, buttons: [[InlineKeyboardButton]] = [], saveTag: String? = nil)
        -> OutboxItem
    {
        var item = bot.renderer.item(
            chatID, "sendMessage",
            SendMessageRequest(
                chatID: chatID, text: String(text.prefix(OutboxRenderer.maxText)),
                replyMarkup: buttons.isEmpty ? nil : InlineKeyboardMarkup(buttons)))
        item.saveTag = saveTag
        return item
    }

    func ack(_ chatID: Int64, _ callbackID: String, _ text: String? = nil) -> OutboxItem {
        bot.renderer.item(
            chatID, "answerCallbackQuery", AnswerCallbackQueryRequest(callbackQueryID: callbackID, text: text))
    }

    // MARK: - commands

    /// `updateID` makes the broadcast steps safe to repeat: a batch delivered again after a crash
    /// (admin commands are handled before it commits) finds what its first delivery did.
    func handle(command: String, payload: String?, chatID: Int64, updateID: Int64) -> [OutboxItem] {
        switch command {
        case "stats": return [reply(chatID, statsText())]
        case "reload": return reload(chatID: chatID)
        case "broadcast": return compose(payload: payload, chatID: chatID, updateID: updateID)
        default: return []
        }
    }

    func statsText() -> String {
        let now = bot.clock.now()
        guard
            let stats = try? bot.store.usageStats(
                now: now, dayStart: Calendar(identifier: .gregorian).startOfDay(for: now))
        else {
            return "Stats are unavailable right now (database error)."
        }
        struct StateLine {
            var code: String
            var learners: Int
        }
        struct Context {
            var learners, blocked, activeToday, activeWeek, answersToday, challenges, challengePlays, friendships: Int
            var hasStates: Bool
            var states: [StateLine]
            var hasDaily: Bool
            var daily: [StateLine]
            var noState: Int
            var hasNoState: Bool
            var unanswered: [Asked]
            var hasUnanswered: Bool
            var unhelpful: [Votes]
            var hasUnhelpful: Bool
        }
        struct Asked {
            var text: String
            var times: Int
        }
        struct Votes {
            var ref: String
            var down: Int
            var up: Int
        }
        let unanswered = ((try? bot.store.unansweredQuestions()) ?? []).map { Asked(text: $0.text, times: $0.times) }
        let unhelpful = ((try? bot.store.unhelpfulAnswers()) ?? []).map {
            Votes(ref: $0.ref, down: $0.notHelpful, up: $0.helpful)
        }
        let social = (try? bot.store.socialCounts()) ?? (challenges: 0, plays: 0, friendships: 0)
        // Today's Daily 5 players, each state on its own day.
        let days = Dictionary(
            uniqueKeysWithValues: bot.banks.states.map { ($0.code, DailyChallenge.day(for: $0, at: now)) })
        let daily = ((try? bot.store.dailyPlayers(on: days)) ?? []).map {
            StateLine(code: $0.code, learners: $0.players)
        }
        let noState = max(0, stats.learners - stats.byState.reduce(0) { $0 + $1.learners })
        return prompts.render(
            "admin_stats",
            Context(
                learners: stats.learners, blocked: stats.blocked, activeToday: stats.activeToday,
                activeWeek: stats.activeWeek, answersToday: stats.answersToday,
                challenges: social.challenges, challengePlays: social.plays, friendships: social.friendships,
                hasStates: !stats.byState.isEmpty || noState > 0,
                states: stats.byState.prefix(20).map { StateLine(code: $0.code, learners: $0.learners) },
                hasDaily: !daily.isEmpty, daily: daily,
                // Learners who have not picked a state yet: "Learners: 3" over two states read wrong.
                noState: noState, hasNoState: noState > 0,
                unanswered: unanswered, hasUnanswered: !unanswered.isEmpty,
                unhelpful: unhelpful, hasUnhelpful: !unhelpful.isEmpty))
    }

    /// Re-reads Banks/, validates everything, and swaps atomically; a bad bank keeps the old ones.
    /// Validating every file (and building the ask index) takes a while, so it runs on the
    /// maintenance thread, not the batch's: learners' updates go on meanwhile, and the report
    /// follows in its own message (#39 item 3).
    func reload(chatID: Int64) -> [OutboxItem] {
        let bot = self.bot
        bot.maintenance.start {
            let desk = AdminDesk(bot: bot)
            do {
                try bot.store.commit([], offset: nil, extraOutbox: desk.reloadReport(chatID: chatID))
                bot.sender.wakeSoon()
            } catch {
                bot.logger.error("bank reload report not queued: \(error)")
            }
        }
        return [reply(chatID, prompts.strings.buttons["adminReloading"] ?? "Reloading the banks…")]
    }

    /// The reload itself and its report (with "Tell TX learners" buttons for states with new questions).
    func reloadReport(chatID: Int64) -> [OutboxItem] {
        let outcome = bot.reloadBanks()
        var buttons: [[InlineKeyboardButton]] = []
        for (code, added) in outcome.addedByState.prefix(3) {
            buttons.append([
                InlineKeyboardButton(
                    text: prompts.text(
                        prompts.strings.buttons["adminTell"] ?? """
                            Tell {{code}}
                            """, ["code": code, "count": String(added)]),
                    callbackData: "\(Self.callbackPrefix)bn:\(code):\(added)")
            ])
        }
        return [reply(chatID, outcome.report, buttons: buttons)]
    }

    func compose(payload: String?, chatID: Int64, updateID: Int64) -> [OutboxItem] {
        switch BroadcastDraft.parse(payload ?? "", states: bot.banks.states) {
        case .success(let draft):
            return preview(stateCode: draft.stateCode, text: draft.text, chatID: chatID, updateID: updateID)
        case .failure(.empty): return [reply(chatID, broadcastText(usage: true))]
        case .failure(let problem): return [reply(chatID, broadcastText(usage: true, why: problem.description))]
        }
    }

    func preview(stateCode: String?, text: String, chatID: Int64, updateID: Int64) -> [OutboxItem] {
        let note = text
        do {
            let id = try bot.store.createBroadcast(
                stateCode: stateCode, text: note, adminChatID: chatID, now: bot.clock.now(),
                updateID: updateID)
            let count = try bot.store.audienceCount(stateCode: stateCode)
            let send = InlineKeyboardButton(
                text: prompts.text(prompts.strings.buttons["adminSend"] ?? "Send", ["count": String(count)]),
                callbackData: "\(Self.callbackPrefix)bs:\(id)")
            let cancel = InlineKeyboardButton(
                text: prompts.strings.buttons["adminCancel"] ?? "Cancel", callbackData: "\(Self.callbackPrefix)bc:\(id)"
            )
            // Nobody to send to: no "Send to 0" button, only a way to drop the draft.
            return [
                reply(
                    chatID, broadcastText(preview: (count, audience(stateCode), learnerText(note))),
                    buttons: [count > 0 ? [send, cancel] : [cancel]])
            ]
        } catch {
            return [reply(chatID, "Could not create the broadcast: \(error)")]
        }
    }

    /// "New York learners" or "learners" (everyone).
    func audience(_ stateCode: String?) -> String {
        stateCode.flatMap { bot.banks.state($0)?.name } ?? ""
    }

    /// The learner-visible note (escaped, from Prompts/broadcast.mustache).
    func learnerText(_ note: String) -> String {
        prompts.render("broadcast", BroadcastNote(text: note))
    }

    struct BroadcastContext {
        var usage = false
        var why = ""
        var hasWhy = false
        var preview = false
        var nobody = false
        var everyone = false
        var progress = false
        var cancelled = false
        var done = false
        var id: Int64 = 0
        var recipients = 0
        var audience = ""
        var plural = "s"
        var rendered = ""
        var sent = 0
        var blocked = 0
        var failed = 0
        var hasFailed = false
    }

    func broadcastText(usage: Bool = false, why: String? = nil, preview: (Int, String, String)? = nil) -> String {
        var c = BroadcastContext()
        c.usage = usage
        c.why = why ?? ""
        c.hasWhy = why != nil
        if let (count, audience, rendered) = preview {
            c.preview = true
            c.recipients = count
            c.audience = audience
            c.plural = count == 1 ? "" : "s"
            c.rendered = rendered
            c.nobody = count == 0
            c.everyone = audience.isEmpty
        }
        return prompts.render("admin_broadcast", c)
    }

    func progressText(_ b: Broadcast, _ p: BroadcastProgress, done: Bool) -> String {
        var c = BroadcastContext()
        c.progress = true
        c.id = (try? bot.store.broadcastNumber(b.id)).map(Int64.init) ?? b.id
        c.audience = audience(b.stateCode)
        c.everyone = c.audience.isEmpty
        c.recipients = b.recipients
        c.sent = p.sent
        c.blocked = p.blocked
        c.failed = p.failed
        c.hasFailed = p.failed > 0
        c.done = done
        return prompts.render("admin_broadcast", c)
    }

    // MARK: - buttons

    func handleButton(data: String, callbackID: String, chatID: Int64, updateID: Int64) -> [OutboxItem] {
        let parts = data.dropFirst(Self.callbackPrefix.count).split(separator: ":").map(String.init)
        switch (parts.first, parts.count) {
        case ("bs", 2):
            guard let id = Int64(parts[1]),
                (try? bot.store.setBroadcastStatus(id, from: "draft", to: "sending", updateID: updateID)) == true,
                let b = try? bot.store.broadcast(id)
            else {
                return [ack(chatID, callbackID, "Already sent or cancelled.")]
            }
            let empty = BroadcastProgress(queued: 0, sent: 0, blocked: 0, failed: 0, pending: 0)
            return [
                ack(chatID, callbackID, "Sending…"),
                reply(chatID, progressText(b, empty, done: false), saveTag: "bc\(id)"),
            ]
        case ("bc", 2):
            guard let id = Int64(parts[1]),
                (try? bot.store.setBroadcastStatus(id, from: "draft", to: "cancelled", updateID: updateID)) == true
            else {
                return [ack(chatID, callbackID, "Already sent or cancelled.")]
            }
            var c = BroadcastContext()
            c.cancelled = true
            return [ack(chatID, callbackID), reply(chatID, prompts.render("admin_broadcast", c))]
        case ("bn", 3):
            guard let state = bot.banks.state(parts[1]), let count = Int(parts[2]) else {
                return [ack(chatID, callbackID)]
            }
            let notes = bot.banks.files.first { $0.file == "states/\(state.code).json" }?.changelog.last?.notes ?? ""
            let text = prompts.text(
                prompts.strings.admin?["newQuestions"] ?? "{{count}} new {{stateName}} questions!",
                ["count": String(count), "stateName": state.name, "notes": notes, "plural": count == 1 ? "" : "s"])
            return [ack(chatID, callbackID)]
                + preview(stateCode: state.code, text: text, chatID: chatID, updateID: updateID)
        default:
            return [ack(chatID, callbackID)]
        }
    }
}

/// What a bank reload did, for the admin's reply and the CLI.
public struct ReloadOutcome: Sendable {
    public var ok: Bool
    public var report: String
    /// States whose own question count grew, largest first.
    public var addedByState: [(String, Int)]
}

extension Bot {
    /// Re-reads and validates Banks/; swaps them in only if every file is valid.
    public func reloadBanks() -> ReloadOutcome {
        let prompts = renderer.prompts
        struct Change {
            var file: String
            var version: String
            var count: Int
            var added: Int?
        }
        struct Problem { var text: String }
        struct Context {
            var ok: Bool
            var states = 0
            var questions = 0
            var delta = "±0"
            var changes: [Change] = []
            var count = 0
            var plural = "s"
            var problems: [Problem] = []
            var more: Int? = nil
        }
        let old = banks
        let result: (banks: Banks?, problems: [BankProblem])
        do { result = try BankFiles.load(config.banksDirectory) } catch {
            return ReloadOutcome(ok: false, report: "❌ \(error)", addedByState: [])
        }
        guard let new = result.banks else {
            let lines = BankProblemReport.lines(result.problems)
            let shown = lines.prefix(25)
            var c = Context(ok: false)
            c.count = result.problems.count
            c.plural = c.count == 1 ? "" : "s"
            c.problems = shown.map { Problem(text: $0) }
            c.more = lines.count > shown.count ? lines.count - shown.count : nil
            logger.error("bank reload refused: \(result.problems.count) problem(s)")
            return ReloadOutcome(ok: false, report: prompts.render("admin_reload", c), addedByState: [])
        }
        replaceBanks(new)
        var c = Context(ok: true)
        c.states = new.states.count
        c.questions = new.questionCount
        let d = new.questionCount - old.questionCount
        c.delta = d >= 0 ? "+\(d)" : "\(d)"
        var added: [(String, Int)] = []
        for info in new.files {
            let code = info.file.hasPrefix("states/") ? String(info.file.dropFirst(7).prefix(2)) : nil
            let count = code.map { new.stateQuestions[$0]?.count ?? 0 } ?? new.universal.count
            let before = code.map { old.stateQuestions[$0]?.count ?? 0 } ?? old.universal.count
            let oldVersion = old.files.first { $0.file == info.file }?.version
            if oldVersion != info.version || count != before {
                c.changes.append(
                    Change(
                        file: info.file, version: info.version, count: count,
                        added: count > before ? count - before : nil))
            }
            if let code, count > before { added.append((code, count - before)) }
        }
        logger.info("banks reloaded: \(new.questionCount) questions")
        return ReloadOutcome(
            ok: true, report: prompts.render("admin_reload", c), addedByState: added.sorted { $0.1 > $1.1 })
    }
}
