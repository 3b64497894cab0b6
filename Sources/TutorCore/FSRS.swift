import Foundation

// FSRS-6 spaced-repetition scheduler, a line-by-line port of py-fsrs 6.3.2 (fsrs/scheduler.py).
// Tests/TutorCoreTests/Fixtures/fsrs-vectors.json (made by tools/fsrs/make_vectors.py) pins it to
// the reference. Arithmetic keeps py-fsrs's operation order and its `math.e ** x` / `x ** y` as
// `pow`, and its `round` is Python's (half to even), so due dates match to the second.
//
// The model: a card's memory has a stability S (days until recall probability falls to 90%) and a
// difficulty D (1…10). Retrievability R(t) = (1 + factor·t/S)^decay is the chance of recall after
// t days; a review updates S and D, and the next interval is the t where R(t) = desiredRetention.

/// How well the learner recalled the card.
public enum Rating: Int, Codable, Sendable, CaseIterable {
    case again = 1
    case hard, good, easy
}

/// Learning: new, on the short learning steps. Review: graduated, scheduled in days.
/// Relearning: lapsed from review, on the short relearning steps.
public enum CardState: Int, Codable, Sendable {
    case learning = 1
    case review, relearning
}

public struct FSRSCard: Codable, Equatable, Sendable {
    public var state: CardState
    /// Index into the (re)learning steps; nil in the review state.
    public var step: Int?
    /// Days for R to fall from 100% to 90%; nil before the first review.
    public var stability: Double?
    /// 1 (easy) … 10 (hard); nil before the first review.
    public var difficulty: Double?
    public var due: Date
    public var lastReview: Date?

    public init(state: CardState, step: Int?, stability: Double?, difficulty: Double?, due: Date, lastReview: Date?) {
        self.state = state
        self.step = step
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.lastReview = lastReview
    }

    /// A never-reviewed card (py-fsrs `Card()`: learning, step 0).
    public static func new(due: Date) -> FSRSCard {
        FSRSCard(state: .learning, step: 0, stability: nil, difficulty: nil, due: due, lastReview: nil)
    }
}

public struct FSRSParameters: Sendable, Equatable {
    /// py-fsrs `DEFAULT_PARAMETERS` (FSRS-6). w[0…3] initial stability per rating, w[4…7] difficulty,
    /// w[8…10] recall stability, w[11…14] forget stability, w[15] hard penalty, w[16] easy bonus,
    /// w[17…19] same-day (short-term) stability, w[20] the forgetting curve's decay.
    public static let defaultWeights: [Double] = [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ]

    public var weights: [Double]
    /// The recall probability at which a review card comes due.
    public var desiredRetention: Double
    /// Seconds between reviews while learning.
    public var learningSteps: [TimeInterval]
    /// Seconds between reviews while relearning after a lapse.
    public var relearningSteps: [TimeInterval]
    /// Longest review interval, in days.
    public var maximumInterval: Int
    /// Spread review intervals a little so cards learned together don't stay due together.
    /// (py-fsrs defaults this to true; here it is off unless asked for.)
    public var enableFuzzing: Bool

    public init(
        weights: [Double] = FSRSParameters.defaultWeights, desiredRetention: Double = 0.9,
        learningSteps: [TimeInterval] = [60, 600], relearningSteps: [TimeInterval] = [600],
        maximumInterval: Int = 36500, enableFuzzing: Bool = false
    ) {
        precondition(weights.count == 21, "FSRS-6 takes 21 weights, got \(weights.count)")
        self.weights = weights
        self.desiredRetention = desiredRetention
        self.learningSteps = learningSteps
        self.relearningSteps = relearningSteps
        self.maximumInterval = maximumInterval
        self.enableFuzzing = enableFuzzing
    }
}

public struct FSRSScheduler: Sendable {
    public let parameters: FSRSParameters
    /// The forgetting curve's exponent (negative).
    let decay: Double
    /// Chosen so that R(S) = 0.9 exactly: that is what "stability" means.
    let factor: Double

    static let stabilityMin = 0.001
    static let minDifficulty = 1.0
    static let maxDifficulty = 10.0
    /// Python's `math.e`; py-fsrs writes exponentials as `math.e ** x`, so `pow(e, x)` keeps its rounding.
    static let e = 2.718281828459045
    /// py-fsrs `FUZZ_RANGES`: longer intervals get proportionally less fuzz.
    static let fuzzRanges: [(start: Double, end: Double, factor: Double)] = [
        (2.5, 7.0, 0.15), (7.0, 20.0, 0.1), (20.0, .infinity, 0.05),
    ]

    public init(_ parameters: FSRSParameters = .init()) {
        self.parameters = parameters
        decay = -parameters.weights[20]
        factor = pow(0.9, 1 / decay) - 1
    }

    var w: [Double] { parameters.weights }

    /// Probability of recalling the card at `now` (0 if never reviewed). Elapsed time counts in
    /// whole days, as py-fsrs does, so a same-day check reads 1.
    public func retrievability(_ card: FSRSCard, at now: Date) -> Double {
        guard let lastReview = card.lastReview, let stability = card.stability else { return 0 }
        let elapsedDays = max(0, Self.wholeDays(from: lastReview, to: now))
        return pow(1 + factor * Double(elapsedDays) / stability, decay)
    }

    /// The card after a review with `rating` at `now`. `random` is drawn from only when fuzzing is on
    /// and the card lands in the review state with an interval of 3 days or more.
    public func review(_ card: FSRSCard, rating: Rating, at now: Date, random: inout SeededRandom) -> FSRSCard {
        var card = card
        // py-fsrs asserts these are set outside a fresh learning card; a card missing them starts afresh.
        guard let stability = card.stability, let difficulty = card.difficulty else {
            card.stability = initialStability(rating)
            card.difficulty = clampDifficulty(initialDifficulty(rating))
            if card.state != .learning {
                card.state = .learning
                card.step = 0
            }
            return schedule(card, rating: rating, at: now, random: &random)
        }

        // A review within a day of the last one barely tests long-term memory: only a short-term
        // adjustment. Otherwise stability updates by how likely recall was (R at this moment).
        let daysSinceLastReview = card.lastReview.map { Self.wholeDays(from: $0, to: now) }
        if let days = daysSinceLastReview, days < 1 {
            card.stability = shortTermStability(stability, rating: rating)
        } else {
            card.stability = nextStability(
                difficulty: difficulty, stability: stability,
                retrievability: retrievability(card, at: now), rating: rating)
        }
        card.difficulty = nextDifficulty(difficulty, rating: rating)
        return schedule(card, rating: rating, at: now, random: &random)
    }

    /// Moves the card through its states and sets `due` (stability and difficulty already updated).
    private func schedule(_ card: FSRSCard, rating: Rating, at now: Date, random: inout SeededRandom) -> FSRSCard {
        var card = card
        let stability = card.stability!
        var nextInterval: TimeInterval

        func graduate() -> TimeInterval {
            card.state = .review
            card.step = nil
            return TimeInterval(nextIntervalDays(stability)) * 86_400
        }

        switch card.state {
        case .learning, .relearning:
            let steps = card.state == .learning ? parameters.learningSteps : parameters.relearningSteps
            let step = card.step ?? 0
            // A card past the last step (the steps were shortened since) graduates on any pass.
            if steps.isEmpty || (step >= steps.count && rating != .again) {
                nextInterval = graduate()
            } else {
                switch rating {
                case .again:
                    card.step = 0
                    nextInterval = steps[0]
                case .hard:
                    // The step stays; on the first step, wait a bit longer than it.
                    card.step = step
                    if step == 0 && steps.count == 1 {
                        nextInterval = Self.microseconds(steps[0] * 1.5)
                    } else if step == 0 && steps.count >= 2 {
                        nextInterval = Self.microseconds((steps[0] + steps[1]) / 2.0)
                    } else {
                        nextInterval = steps[step]
                    }
                case .good:
                    if step + 1 == steps.count {
                        nextInterval = graduate()
                    } else {
                        card.step = step + 1
                        nextInterval = steps[step + 1]
                    }
                case .easy:
                    nextInterval = graduate()
                }
            }
        case .review:
            if rating == .again && !parameters.relearningSteps.isEmpty {
                card.state = .relearning
                card.step = 0
                nextInterval = parameters.relearningSteps[0]
            } else {
                nextInterval = TimeInterval(nextIntervalDays(stability)) * 86_400
            }
        }

        if parameters.enableFuzzing && card.state == .review {
            let days = Int((nextInterval / 86_400).rounded(.down))
            nextInterval = TimeInterval(fuzzedIntervalDays(days, random: &random)) * 86_400
        }
        card.due = now.addingTimeInterval(nextInterval)
        card.lastReview = now
        return card
    }

    // MARK: - The FSRS-6 formulas

    func clampDifficulty(_ d: Double) -> Double { min(max(d, Self.minDifficulty), Self.maxDifficulty) }
    func clampStability(_ s: Double) -> Double { max(s, Self.stabilityMin) }

    /// First review: stability is a learned constant per rating.
    func initialStability(_ rating: Rating) -> Double { clampStability(w[rating.rawValue - 1]) }

    /// First review: "again" gives w4, each better rating exponentially less (unclamped).
    func initialDifficulty(_ rating: Rating) -> Double {
        w[4] - pow(Self.e, w[5] * Double(rating.rawValue - 1)) + 1
    }

    /// Whole days until R falls to desiredRetention (at least 1, at most maximumInterval).
    func nextIntervalDays(_ stability: Double) -> Int {
        let interval = (stability / factor) * (pow(parameters.desiredRetention, 1 / decay) - 1)
        let days = Int(interval.rounded(.toNearestOrEven))  // Python round(): half to even
        return min(max(days, 1), parameters.maximumInterval)
    }

    /// Same-day review: stability scales by e^(w17·(G−3+w18))·S^−w19; a pass never lowers it.
    func shortTermStability(_ stability: Double, rating: Rating) -> Double {
        var increase = pow(Self.e, w[17] * (Double(rating.rawValue - 3) + w[18])) * pow(stability, -w[19])
        if rating != .again { increase = max(increase, 1.0) }
        return clampStability(stability * increase)
    }

    /// Difficulty moves by −w6·(G−3), damped as it nears 10, then reverts slightly toward D0(easy).
    func nextDifficulty(_ difficulty: Double, rating: Rating) -> Double {
        let target = initialDifficulty(.easy)
        let delta = -(w[6] * Double(rating.rawValue - 3))
        let damped = difficulty + (10.0 - difficulty) * delta / 9.0
        return clampDifficulty(w[7] * target + (1 - w[7]) * damped)
    }

    func nextStability(difficulty: Double, stability: Double, retrievability: Double, rating: Rating) -> Double {
        let s =
            rating == .again
            ? nextForgetStability(difficulty: difficulty, stability: stability, retrievability: retrievability)
            : nextRecallStability(
                difficulty: difficulty, stability: stability, retrievability: retrievability,
                rating: rating)
        return clampStability(s)
    }

    /// After a lapse: a fraction of the old stability, never more than the same-day "again" would give.
    func nextForgetStability(difficulty: Double, stability: Double, retrievability: Double) -> Double {
        let longTerm =
            w[11] * pow(difficulty, -w[12]) * (pow(stability + 1, w[13]) - 1)
            * pow(Self.e, (1 - retrievability) * w[14])
        let shortTerm = stability / pow(Self.e, w[17] * w[18])
        return min(longTerm, shortTerm)
    }

    /// After a successful recall: stability grows more for easy cards, low stability, and recalls
    /// that were harder to make (low R — the "desirable difficulty" effect).
    func nextRecallStability(difficulty: Double, stability: Double, retrievability: Double, rating: Rating) -> Double {
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        return stability
            * (1 + pow(Self.e, w[8]) * (11 - difficulty) * pow(stability, -w[9])
                * (pow(Self.e, (1 - retrievability) * w[10]) - 1) * hardPenalty * easyBonus)
    }

    // MARK: - Fuzz

    /// py-fsrs `_get_fuzz_range`: the interval ± a delta that grows 15%/10%/5% per day over the
    /// 2.5–7 / 7–20 / 20+ day bands, kept within [2, maximumInterval].
    func fuzzRange(_ intervalDays: Int) -> (min: Int, max: Int) {
        var delta = 1.0
        for range in Self.fuzzRanges {
            delta += range.factor * max(min(Double(intervalDays), range.end) - range.start, 0.0)
        }
        var minIvl = Int((Double(intervalDays) - delta).rounded(.toNearestOrEven))
        var maxIvl = Int((Double(intervalDays) + delta).rounded(.toNearestOrEven))
        minIvl = max(2, minIvl)
        maxIvl = min(maxIvl, parameters.maximumInterval)
        minIvl = min(minIvl, maxIvl)
        return (minIvl, maxIvl)
    }

    /// py-fsrs `_get_fuzzed_interval`, drawing u in [0, 1) as `1 − random.unit()` where it calls
    /// Python's `random()`. Like py-fsrs, rounding u·(max−min+1)+min can land on max+1 (still capped
    /// at maximumInterval).
    func fuzzedIntervalDays(_ intervalDays: Int, random: inout SeededRandom) -> Int {
        if Double(intervalDays) < 2.5 { return intervalDays }  // no fuzz below 2.5 days
        let (minIvl, maxIvl) = fuzzRange(intervalDays)
        let u = 1 - random.unit()
        let fuzzed = u * Double(maxIvl - minIvl + 1) + Double(minIvl)
        return min(Int(fuzzed.rounded(.toNearestOrEven)), parameters.maximumInterval)
    }

    // MARK: - Time, as Python's datetime sees it

    /// Python's `timedelta.days`: whole days, floored (a negative gap is −1 or less), at microsecond resolution.
    static func wholeDays(from start: Date, to end: Date) -> Int {
        let micros = (end.timeIntervalSince(start) * 1_000_000).rounded()
        return Int((micros / 86_400_000_000).rounded(.down))
    }

    /// A timedelta times a float is rounded to whole microseconds (half to even).
    static func microseconds(_ seconds: TimeInterval) -> TimeInterval {
        (seconds * 1_000_000).rounded(.toNearestOrEven) / 1_000_000
    }
}
