import Foundation
import HeapModule

/// How the sender waits: the run loop's sleep between looks, its throttle, a chat waiting out its
/// pace and the sent marks' short delay all share one timer.
///
/// Why: a `Task.sleep` is a dispatch timer, armed on the caller's thread, fired by dispatch's
/// timer thread and then a worker woken to resume the task: three threads and a handful of
/// system calls. Under load nearly every reply waits for its chat's pace (a learner who taps the
/// moment a message arrives wants more than one a second), and the bench counted ~1,080 timers a
/// second at ~800 updates a second, three quarters of them those waits. Waits now park a
/// continuation; the run loop, which looks every few milliseconds under load anyway, releases
/// the due ones, and one timer covers the earliest (`timerSlack` lets waits due close together
/// share it).
extension OutboxSender {
    /// A timer may fire this much after the earliest wait it serves (a reply paced to 12:00:01.000
    /// goes at 12:00:01.005 at worst): a timer already armed within it is not armed again.
    static let timerSlack = Duration.milliseconds(5)

    /// Waits for `wake()` or `seconds`, whichever is first.
    func sleep(seconds: TimeInterval) async {
        if wokenEarly {
            wokenEarly = false
            return
        }
        await park(until: .now + .seconds(seconds), wakeable: true)
    }

    /// Waits until `due` whatever wakes come meanwhile (they are kept in `wokenEarly`): the run
    /// loop's throttle. A timer armed for an earlier wait may end it sooner; the loop then waits again.
    func nap(until due: ContinuousClock.Instant) async {
        await park(until: due, wakeable: false)
    }

    private func park(until due: ContinuousClock.Instant, wakeable: Bool) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            wakeup = c
            wakeupTakesWakes = wakeable
            armTimer(for: due)
        }
    }

    /// Makes sure the run loop is resumed by `due` (+ `timerSlack`): a timer is started only when
    /// none due by then is pending. A timer firing for an earlier wait just means one more look.
    func armTimer(for due: ContinuousClock.Instant) {
        if let pending = timerDue, pending <= due + Self.timerSlack { return }
        timerDue = due
        Task {
            try? await Task.sleep(until: due, clock: .continuous)
            self.timeout(due)
        }
    }

    private func timeout(_ due: ContinuousClock.Instant) {
        if timerDue == due { timerDue = nil }
        guard let w = wakeup else { return }
        wakeup = nil
        w.resume()
    }

    /// Waits until the chat's pace lets its next message go: released by the run loop's look at
    /// or after `due` (see `releasePacedChats`), or at once when the sender stops.
    func waitForPace(until due: ContinuousClock.Instant) async {
        guard !stopped else { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            pacedChats.add(due: due, waiter: c)
            armTimer(for: due)
        }
    }

    /// Lets go every chat whose pace allows its message now (all of them when stopping); returns
    /// when the next one is due.
    func releasePacedChats(stopping: Bool = false) -> ContinuousClock.Instant? {
        for waiter in pacedChats.takeDue(by: stopping ? nil : .now) { waiter.resume() }
        return pacedChats.earliest
    }
}

/// Chats waiting out their pace, earliest first (a heap: hundreds wait at once under load).
struct PacedChats {
    /// One chat's wait; ordered by when it is due.
    private struct Waiter: Comparable {
        let due: ContinuousClock.Instant
        let waiter: CheckedContinuation<Void, Never>
        static func < (a: Waiter, b: Waiter) -> Bool { a.due < b.due }
        static func == (a: Waiter, b: Waiter) -> Bool { a.due == b.due }
    }
    private var heap = Heap<Waiter>()

    var earliest: ContinuousClock.Instant? { heap.min?.due }

    mutating func add(due: ContinuousClock.Instant, waiter: CheckedContinuation<Void, Never>) {
        heap.insert(Waiter(due: due, waiter: waiter))
    }

    /// Removes and returns the waiters due by `now` (every waiter when nil), earliest first.
    mutating func takeDue(by now: ContinuousClock.Instant?) -> [CheckedContinuation<Void, Never>] {
        var due: [CheckedContinuation<Void, Never>] = []
        while let first = heap.min, now.map({ first.due <= $0 }) ?? true {
            due.append(first.waiter)
            heap.removeMin()
        }
        return due
    }
}
