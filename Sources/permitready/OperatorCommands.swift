import ArgumentParser
import Foundation
import Logging
import TutorBot
import TutorCore
import TutorStore

extension PermitReady {
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Learners, active today / this week, answers today, blocked, by state.")
        @OptionGroup var paths: Paths
        @Flag(help: "Only what learners typed: the 20 questions asked most that no card answered, answers marked 👎.")
        var unanswered = false

        func run() throws {
            do {
                let config = paths.config(token: "", defaultDB: "permitready.sqlite")
                let store = try TutorStore(path: config.databasePath, access: .readOnly)
                if unanswered {
                    let asked = try store.unansweredQuestions()
                    print("asked most, no card answered them (last 14 days): \(asked.isEmpty ? "none" : "")")
                    for q in asked { print(String(format: "  %4d× ", q.times) + q.text) }
                    let votes = try store.unhelpfulAnswers()
                    print("answers marked 👎: \(votes.isEmpty ? "none" : "")")
                    for v in votes { print(String(format: "  %4d 👎 %4d 👍 ", v.notHelpful, v.helpful) + v.ref) }
                    return
                }
                // The bot's clock (PERMITREADY_FAKE_NOW in a demo), so "today" is the bot's today.
                let now = BotClock(fakeNow: config.fakeNow).now()
                let s = try store.usageStats(now: now, dayStart: Calendar(identifier: .gregorian).startOfDay(for: now))
                print(
                    "learners \(s.learners) · active today \(s.activeToday) · this week \(s.activeWeek)"
                        + " · answers today \(s.answersToday) · blocked \(s.blocked)")
                for (code, n) in s.byState { print("  \(code) \(n)") }
                let noState = s.learners - s.byState.reduce(0) { $0 + $1.learners }
                if noState > 0 { print("  no state yet \(noState)") }
            } catch { throw fail("\(error)") }
        }
    }

    struct BroadcastCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "broadcast",
            abstract:
                "Queue a note to all learners or one state's; the running bot delivers it within Telegram's limits.",
            discussion: "Without --send it only prints the preview and the number of recipients.")
        @OptionGroup var paths: Paths
        @Option(help: "A state code (TX) or \"all\".") var to: String
        @Option(help: "The note (plain text; it is escaped).") var text: String
        @Flag(help: "Really queue it.") var send = false

        func run() throws {
            do {
                let config = paths.config(token: "", defaultDB: "permitready.sqlite")
                let (banks, problems) = try BankFiles.load(config.banksDirectory)
                guard let banks else {
                    throw fail(
                        "the banks in \(config.banksDirectory) do not load: \(problems.first.map { "\($0)" } ?? "")")
                }
                // Checked exactly as the chat's /broadcast checks it.
                let draft: BroadcastDraft
                switch BroadcastDraft.make(to: to, text: text, states: banks.states) {
                case .success(let d): draft = d
                case .failure(let problem): throw fail("nothing queued: \(problem)")
                }
                let store = try TutorStore(path: config.databasePath, access: .current)
                let prompts = try Prompts.load(directory: config.promptsDirectory)
                let count = try store.audienceCount(stateCode: draft.stateCode)
                let learners = count == 1 ? "learner" : "learners"
                let audience =
                    draft.stateCode.flatMap { banks.state($0)?.name }.map { "\(count) \($0) \(learners)" }
                    ?? "\(count) \(learners) (everyone)"
                print(
                    """
                    To \(audience). Each gets:\n\n\
                    \(OutboxRenderer.plain(prompts.render("broadcast", BroadcastNote(text: draft.text))))\n
                    """
                )
                guard count > 0 else { throw fail("nothing queued: nobody would get it (no \(audience) yet)") }
                guard send else {
                    print("Preview only: add --send to queue it.")
                    return
                }
                let id = try store.createBroadcast(
                    stateCode: draft.stateCode, text: draft.text, adminChatID: nil, status: "sending", now: Date())
                print("Queued as broadcast #\(id); the running bot sends it (progress in its log).")
            } catch let e as ExitCode { throw e } catch { throw fail("\(error)") }
        }
    }
}
