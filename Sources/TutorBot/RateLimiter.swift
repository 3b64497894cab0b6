import Foundation
import Synchronization

/// An overall message rate as a schedule of send slots (GCRA): each caller takes the next free
/// slot and sleeps until it, so waiting callers are served in order without polling. A nil rate
/// lets everyone through. A new rate spaces the slots taken after the change; the old token bucket
/// let callers arriving after a raise compute slots that overlapped those already sleeping, which
/// sent up to twice the pace and drew the very 429s the pace was there to avoid.
///
/// A value the sender owns (one of its actor's fields), not an actor of its own: every message
/// asked an actor for its slot, two executor hops each, to be told "go" by the unpaced limiter.
struct RateLimiter {
    private(set) var rate: Double?
    let burst: Double
    /// The earliest instant the next caller may go.
    var nextSlot: ContinuousClock.Instant = .now

    init(perSecond rate: Double?, burst: Double = 1) {
        self.rate = rate.map { max($0, 0.1) }
        self.burst = burst
    }

    mutating func setRate(_ newRate: Double?) {
        rate = newRate.map { max($0, 0.5) }
    }

    /// Takes the next send slot: nil to go now, else the instant to sleep until.
    mutating func takeSlot(now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant? {
        guard let rate else { return nil }
        // Up to `burst` slots may be taken at once after a quiet spell.
        let slot = max(nextSlot, now - .seconds((burst - 1) / rate))
        nextSlot = slot + .seconds(1 / rate)
        return slot > now ? slot : nil
    }
}
