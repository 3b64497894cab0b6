import Foundation
import Testing

@testable import TutorCore

/// Fixtures/fsrs-vectors.json, written by tools/fsrs/make_vectors.py from py-fsrs (the reference).
struct FSRSVectors: Decodable {
    struct Scheduler: Decodable {
        var parameters: [Double]
        var desiredRetention: Double
        var learningSteps: [Double]
        var relearningSteps: [Double]
        var maximumInterval: Int
        var enableFuzzing: Bool
    }
    struct Card: Decodable {
        var state: Int
        var step: Int?
        var stability: Double
        var difficulty: Double
        var due: Double
        var lastReview: Double
    }
    struct Review: Decodable {
        var rating: Int
        var time: Double
        var retrievabilityBefore: Double
        var card: Card
        var retrievabilityAtDue: Double
    }
    struct History: Decodable {
        var name: String
        var scheduler: Scheduler
        var start: Double
        var seed: UInt64?
        var reviews: [Review]
    }
    var fsrsVersion: String
    var histories: [History]
    var fuzzedHistories: [History]

    static func load() throws -> FSRSVectors {
        let path = try #require(
            Bundle.module.path(forResource: "fsrs-vectors", ofType: "json", inDirectory: "Fixtures"))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(FSRSVectors.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static let tolerance = 1e-6

    /// Replays one history; returns every disagreement with py-fsrs and the largest float error seen.
    static func replay(_ history: History) -> (mismatches: [String], maxError: Double) {
        let s = history.scheduler
        let scheduler = FSRSScheduler(
            FSRSParameters(
                weights: s.parameters, desiredRetention: s.desiredRetention, learningSteps: s.learningSteps,
                relearningSteps: s.relearningSteps, maximumInterval: s.maximumInterval, enableFuzzing: s.enableFuzzing))
        var random = SeededRandom(seed: history.seed ?? 0)
        var card = FSRSCard.new(due: Date(timeIntervalSince1970: history.start))
        var mismatches: [String] = []
        var maxError = 0.0
        for (i, review) in history.reviews.enumerated() {
            func check(_ what: String, _ got: Double?, _ want: Double) {
                guard let got else { return mismatches.append("\(history.name) #\(i): \(what) is nil, want \(want)") }
                let error = abs(got - want)
                maxError = max(maxError, error)
                if !(error <= tolerance) { mismatches.append("\(history.name) #\(i): \(what) \(got), want \(want)") }
            }
            func same<T: Equatable>(_ what: String, _ got: T, _ want: T) {
                if got != want { mismatches.append("\(history.name) #\(i): \(what) \(got), want \(want)") }
            }
            let now = Date(timeIntervalSince1970: review.time)
            let want = review.card
            check("R before review", scheduler.retrievability(card, at: now), review.retrievabilityBefore)
            card = scheduler.review(card, rating: Rating(rawValue: review.rating)!, at: now, random: &random)
            same("state", card.state.rawValue, want.state)
            same("step", card.step, want.step)
            check("stability", card.stability, want.stability)
            check("difficulty", card.difficulty, want.difficulty)
            same("due", card.due.timeIntervalSince1970, want.due)
            same("last review", card.lastReview?.timeIntervalSince1970, want.lastReview)
            check("R at due", scheduler.retrievability(card, at: card.due), review.retrievabilityAtDue)
        }
        return (mismatches, maxError)
    }
}

@Suite struct FSRSTests {
    @Test func matchesPyFSRSWithoutFuzz() throws {
        let vectors = try FSRSVectors.load()
        #expect(vectors.fsrsVersion.hasPrefix("6."))
        #expect(vectors.histories.count >= 30)
        var mismatches: [String] = []
        for history in vectors.histories {
            #expect(!history.scheduler.enableFuzzing)
            mismatches += FSRSVectors.replay(history).mismatches
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    /// py-fsrs with its `random()` swapped for the same SplitMix64 (u = 1 − unit()): fuzz must match draw for draw.
    @Test func matchesPyFSRSWithFuzz() throws {
        let vectors = try FSRSVectors.load()
        #expect(!vectors.fuzzedHistories.isEmpty)
        var mismatches: [String] = []
        for history in vectors.fuzzedHistories {
            #expect(history.scheduler.enableFuzzing && history.seed != nil)
            mismatches += FSRSVectors.replay(history).mismatches
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(20).joined(separator: "\n"))")
    }

    @Test func defaultsAreFSRS6() {
        let p = FSRSParameters()
        #expect(p.weights.count == 21 && p.weights[20] == 0.1542)
        #expect(p.desiredRetention == 0.9 && p.learningSteps == [60, 600] && p.relearningSteps == [600])
        #expect(p.maximumInterval == 36500 && !p.enableFuzzing)
        let card = FSRSCard.new(due: Date(timeIntervalSince1970: 0))
        #expect(card.state == .learning && card.step == 0 && card.stability == nil && card.lastReview == nil)
        #expect(FSRSScheduler().retrievability(card, at: Date(timeIntervalSince1970: 1e9)) == 0)
    }

    /// py-fsrs `_get_fuzz_range` for a few intervals (worked by hand from FUZZ_RANGES).
    @Test(arguments: [(3, 2, 4), (7, 5, 9), (10, 8, 12), (20, 17, 23), (100, 93, 107), (36500, 34673, 36500)])
    func fuzzRangeMatchesPyFSRS(interval: Int, low: Int, high: Int) {
        let range = FSRSScheduler(FSRSParameters(enableFuzzing: true)).fuzzRange(interval)
        #expect(range.min == low && range.max == high)
    }

    @Test func fuzzIsDeterministicAndStaysInRange() {
        let scheduler = FSRSScheduler(FSRSParameters(enableFuzzing: true))
        for days in [1, 2, 3, 5, 10, 30, 100, 1000, 36500] {
            let range = scheduler.fuzzRange(days)
            // As in py-fsrs, round(u·(max−min+1)+min) with u < 1 reaches max+1 (capped at the maximum interval).
            let high = min(range.max + 1, scheduler.parameters.maximumInterval)
            var a = SeededRandom(seed: 12345)
            var b = SeededRandom(seed: 12345)
            var seen = Set<Int>()
            for _ in 0..<2000 {
                let x = scheduler.fuzzedIntervalDays(days, random: &a)
                #expect(x == scheduler.fuzzedIntervalDays(days, random: &b))
                if days < 3 { #expect(x == days) } else { #expect(x >= range.min && x <= high) }
                seen.insert(x)
            }
            // Every value in the range comes up (checked where 2000 draws are plenty).
            if days >= 3 && high - range.min < 100 { #expect(seen == Set(range.min...high), "interval \(days)") }
        }

        // Whole reviews: the same seed gives the same schedule; fuzz only moves review-state due dates.
        let t0 = Date(timeIntervalSince1970: 1_767_272_345)
        func run(_ seed: UInt64) -> [Date] {
            var random = SeededRandom(seed: seed)
            var card = FSRSCard.new(due: t0)
            var dues: [Date] = []
            for rating in [Rating.good, .good, .good, .good, .again, .good, .easy, .hard, .good] {
                card = scheduler.review(card, rating: rating, at: card.due, random: &random)
                dues.append(card.due)
            }
            return dues
        }
        #expect(run(7) == run(7))
        #expect(run(7) != run(8))
        #expect(run(7)[0] == t0.addingTimeInterval(600))  // learning step: no fuzz
    }

    @Test func fuzzOffDrawsNothing() {
        var random = SeededRandom(seed: 3)
        var card = FSRSCard.new(due: Date(timeIntervalSince1970: 1_767_272_345))
        for rating in [Rating.easy, .good, .good, .again, .good] {
            card = FSRSScheduler().review(card, rating: rating, at: card.due, random: &random)
        }
        var fresh = SeededRandom(seed: 3)
        #expect(random.next() == fresh.next())
    }

    @Test(arguments: [false, true])
    func intervalNeverExceedsMaximum(fuzz: Bool) {
        for maximum in [1, 3, 50, 36500] {
            let scheduler = FSRSScheduler(FSRSParameters(maximumInterval: maximum, enableFuzzing: fuzz))
            var random = SeededRandom(seed: UInt64(maximum))
            var card = FSRSCard.new(due: Date(timeIntervalSince1970: 1_767_272_345))
            for _ in 0..<300 {
                let rating = Rating(rawValue: 2 + Int(random.next() % 3))!  // mostly passes, so intervals grow
                let late = random.unit() * 3  // up to three intervals late
                let last = card.lastReview ?? card.due
                let now = last.addingTimeInterval(max(card.due.timeIntervalSince(last) * late, 0))
                card = scheduler.review(card, rating: random.unit() < 0.05 ? .again : rating, at: now, random: &random)
                #expect(card.due.timeIntervalSince(now) <= Double(maximum) * 86_400)
            }
        }
    }
}
