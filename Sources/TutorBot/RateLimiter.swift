import Foundation

/// An overall message rate as a schedule of send slots (GCRA): each caller takes the next free
/// slot and sleeps until it, so waiting callers are served in order without polling. A nil rate
/// lets everyone through. A new rate spaces the slots taken after the change; the old token bucket
/// let callers arriving after a raise compute slots that overlapped those already sleeping, which
/// sent up to twice the pace and drew the very 429s the pace was there to avoid.
actor RateLimiter {
    private(set) var rate: Double?
    let burst: Double
    /// The earliest instant the next caller may go.
    var nextSlot: ContinuousClock.Instant = .now

    init(perSecond rate: Double?, burst: Double = 1) {
        self.rate = rate.map { max($0, 0.1) }
        self.burst = burst
    }

    func setRate(_ newRate: Double?) {
        rate = newRate.map { max($0, 0.5) }
    }

    func acquire() async {
        guard let rate else { return }
        let now = ContinuousClock.now
        // Up to `burst` slots may be taken at once after a quiet spell.
        let slot = max(nextSlot, now - .seconds((burst - 1) / rate))
        nextSlot = slot + .seconds(1 / rate)
        if slot > now { try? await Task.sleep(until: slot, clock: .continuous) }
    }
}

/// A counting semaphore for async tasks: at most `limit` inside at once, the rest wait in order.
actor Gate {
    let limit: Int
    var inside = 0
    var waiting: [CheckedContinuation<Void, Never>] = []
    init(limit: Int) { self.limit = limit }

    func enter() async {
        if inside < limit { inside += 1; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty { inside -= 1 } else { waiting.removeFirst().resume() }
    }
}
