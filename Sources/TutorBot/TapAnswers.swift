import DequeModule
import Foundation
import Logging
import Synchronization
import TelegramAPI
import TutorStore

/// Answers button taps straight after their batch is committed: no queue, no database, no pace,
/// not the sender's actor, and no task: each answer is a request whose outcome a callback hears
/// on the curl thread (`BotAPI.send(_:_:timeout:then:)`). A task per tap, woken once to send and again
/// for the answer, was a few per cent of an update's CPU at 1,000 learners. At most `limit` in
/// flight (the curl thread's sockets are finite), the rest wait their turn in order; a transient
/// failure is retried while Telegram still takes the answer (it refuses one after 15 s).
final class TapAnswers: Sendable {
    let api: BotAPI
    let metrics: BotMetrics?
    let logger: Logger
    let limit: Int

    /// One answer and how far it has got.
    struct Attempt: Sendable {
        var item: OutboxItem
        var tries = 0
        var deadline: ContinuousClock.Instant
    }

    private struct State {
        var inFlight = 0
        /// In arrival order (a deque: a burst of thousands is taken from the front cheaply).
        var waiting = Deque<Attempt>()
    }
    private let state = Mutex(State())

    /// A tap answer older than this is not sent or tried again: Telegram refuses it after 15 s.
    let giveUpAfter: Duration
    static let retries = 3

    init(api: BotAPI, metrics: BotMetrics?, logger: Logger, limit: Int, giveUpAfter: Duration = .seconds(14)) {
        self.api = api
        self.metrics = metrics
        self.logger = logger
        self.limit = limit
        self.giveUpAfter = giveUpAfter
    }

    func answer(_ items: [OutboxItem]) {
        let deadline = ContinuousClock.now + giveUpAfter
        var now: [Attempt] = []
        state.withLock { s in
            for item in items {
                let attempt = Attempt(item: item, deadline: deadline)
                if s.inFlight < limit {
                    s.inFlight += 1
                    now.append(attempt)
                } else {
                    s.waiting.append(attempt)
                }
            }
        }
        for attempt in now { send(attempt) }
    }

    /// Answers in flight and waiting (the tests read it).
    var outstanding: Int { state.withLock { $0.inFlight + $0.waiting.count } }

    private func send(_ attempt: Attempt) {
        // No longer than Telegram still takes the answer: a slow request would hold its place
        // past any use (the default request timeout is 30 s).
        let left = (attempt.deadline - .now).inSeconds
        guard left > 0 else { return done() }
        api.send(attempt.item.method, .json(attempt.item.body), timeout: max(0.5, left)) { [self] outcome in
            switch outcome {
            case .success:
                metrics?.tapsAnswered.increment()
                done()
            case .failure(let error as BotAPIError) where error.isTransient && attempt.tries < Self.retries:
                var again = attempt
                again.tries += 1
                let wait: Duration =
                    if case .retryAfter(let s) = error { .seconds(s) } else { .milliseconds(200 * again.tries) }
                guard ContinuousClock.now + wait < attempt.deadline else { return done() }
                // Rare: a task only for the wait; the answer keeps its place in flight.
                Task {
                    try? await Task.sleep(for: wait)
                    self.send(again)
                }
            case .failure(let error as BotAPIError):
                // A tap too old to answer, or a forged id: nothing a retry can mend.
                logger.info("tap answer not taken: \(error)", metadata: ["chat_id": "\(attempt.item.chatID)"])
                done()
            case .failure(let error):
                // The transport has shut down (or the console's input ended): no answer can go
                // now. The waiting ones are dropped here, not each handed on to fail in turn (a
                // chain of calls as long as the queue).
                let dropped = state.withLock { s -> Int in
                    defer {
                        s.inFlight -= 1
                        s.waiting.removeAll()
                    }
                    return s.waiting.count
                }
                if dropped > 0 { logger.info("\(dropped) tap answer(s) not sent: \(error)") }
            }
        }
    }

    /// One answer is over: its place goes to the next waiting, if any (one Telegram would no
    /// longer take is dropped: under a burst, sending it would only make the fresh ones wait).
    private func done() {
        let now = ContinuousClock.now
        let next = state.withLock { s -> Attempt? in
            while let first = s.waiting.first, first.deadline <= now { s.waiting.removeFirst() }
            guard let first = s.waiting.popFirst() else {
                s.inFlight -= 1
                return nil
            }
            return first
        }
        if let next { send(next) }
    }
}
