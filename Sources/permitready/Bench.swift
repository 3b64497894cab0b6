import ArgumentParser
import Foundation
import TelegramAPI
import TutorBot
import TutorCore

extension PermitReady {
    struct Bench: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Measure update throughput: parse → reduce → commit → outbox, no network.")
        @OptionGroup var paths: Paths
        @Option(help: "Synthetic learners.") var learners: Int = 200
        @Option(help: "Updates per learner.") var updates: Int = 50
        @Option(help: "Updates per getUpdates batch.") var batch: Int = 100

        func run() async throws {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("permitready-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            var config = paths.config(token: "bench", defaultDB: dir.appendingPathComponent("bench.sqlite").path)
            config.databasePath = dir.appendingPathComponent("bench.sqlite").path
            let bot = try Bot.build(config, transport: ConsoleTransport(input: { nil }, write: { _ in }))
            let script = SyntheticLearners(count: learners, updatesEach: updates)
            var timings: [Double] = []
            let started = ContinuousClock.now
            var total = 0
            for b in script.batches(size: batch) {
                let t0 = ContinuousClock.now
                try bot.process(b)
                let elapsed = ContinuousClock.now - t0
                let perUpdate = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) / Double(b.count)
                timings.append(contentsOf: Array(repeating: perUpdate, count: b.count))
                total += b.count
            }
            let wall = ContinuousClock.now - started
            let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
            timings.sort()
            func pct(_ p: Double) -> String { String(format: "%.1f µs", timings[min(timings.count - 1, Int(Double(timings.count) * p))] * 1e6) }
            print("no-network path: \(total) updates from \(learners) learners in batches of \(batch): \(String(format: "%.0f", Double(total) / seconds)) updates/s; per update (batch mean) p50 \(pct(0.5)), p99 \(pct(0.99))")
            print("outbox rows pending: \(try bot.store.pendingCount())")
        }
    }
}

/// Learners who start, pick a state, and answer quiz questions by button, as real updates.
struct SyntheticLearners {
    let count: Int
    let updatesEach: Int

    func batches(size: Int) -> [[ReceivedUpdate]] {
        var all: [ReceivedUpdate] = []
        var updateID: Int64 = 1
        // Interleave learners the way a busy bot sees them.
        for step in 0..<updatesEach {
            for l in 0..<count {
                let chat = Int64(10_000 + l)
                let user = User(id: chat, firstName: "L\(l)")
                let chatObj = Chat(id: chat, type: "private")
                let update: Update
                switch step {
                case 0: update = Update(updateID: updateID, message: Message(messageID: 1, from: user, chat: chatObj, date: 0, text: "/start"))
                case 1: update = Update(updateID: updateID, message: Message(messageID: 2, from: user, chat: chatObj, date: 0, text: "Massachusetts"))
                case 2: update = Update(updateID: updateID, message: Message(messageID: 3, from: user, chat: chatObj, date: 0, text: "/quiz"))
                default:
                    // Alternate a typed answer and "next", through the quiz and into new ones.
                    let text = step % 2 == 1 ? ["A", "B", "C", "D"][(l + step) % 4] : "next"
                    let finished = (step - 3) % 22 == 21
                    update = Update(updateID: updateID, message: Message(messageID: Int64(step), from: user, chat: chatObj, date: 0,
                                                                         text: finished ? "/quiz" : text))
                }
                all.append(ReceivedUpdate(updateID: updateID, update: update))
                updateID += 1
            }
        }
        return stride(from: 0, to: all.count, by: size).map { Array(all[$0..<min($0 + size, all.count)]) }
    }
}
