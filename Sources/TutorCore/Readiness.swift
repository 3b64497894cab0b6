import Foundation

/// How ready the learner is for their state's real permit test, right now.
public struct ReadinessEstimate: Equatable, Sendable {
    /// Estimated probability (0...1) of passing the state's real test today, scored by its real
    /// rules (overall mark, each section's own minimum, separate tests).
    public var passProbability: Double
    /// A plausible (about one standard deviation) range for `passProbability`: the same calculation
    /// with the topics' accuracies moved down (up) together, each in proportion to its uncertainty,
    /// so that the pool-weighted accuracy moves by one posterior standard deviation. Wide when there
    /// is little evidence. In simulations it held the true figure about two times in three (less
    /// for tests that hinge on one section, like VA's 10 of 10 signs).
    public var passProbabilityRange: ClosedRange<Double>
    /// Estimated chance of answering a random question of the topic right (difficulty mixed as in
    /// the pool). Every topic that has questions in the pool is present.
    public var accuracyByTopic: [Topic: Double]
    /// Answers given to questions of this pool, all time (raw count, no recency weighting).
    public var answered: Int
    /// Recency-weighted answers the estimate rests on (see `Readiness`): a measure of how much
    /// the number can be trusted. 0 means the estimate is the prior alone.
    public var evidence: Double

    public init(passProbability: Double, passProbabilityRange: ClosedRange<Double>, accuracyByTopic: [Topic: Double],
                answered: Int, evidence: Double) {
        self.passProbability = passProbability; self.passProbabilityRange = passProbabilityRange
        self.accuracyByTopic = accuracyByTopic; self.answered = answered; self.evidence = evidence
    }
}

/// The "am I ready?" number: the estimated probability that the learner would pass their state's
/// real permit test if they took it now.
///
/// The model, in two steps.
///
/// **1. How likely is a right answer, per topic?** Every answer is evidence, weighted by recency:
/// a question's most recent answer counts `0.5^(age / 14 days)` of an answer, so something last
/// answered right a month ago counts about a quarter. The earlier answers to the same question
/// (their dates are not kept) count half as much as the latest, and at most four of them do, so
/// drilling one question a dozen times does not swamp a topic. The weighted right/total answers
/// are then shrunk toward a prior, Beta-style: `(priorMean · k + right) / (k + answers)`, so two
/// lucky answers do not read as 100% (they read about 72%). The priors nest:
/// - overall: 60% worth 20 answers, updated with all the learner's answers;
/// - each topic: the learner's overall figure from the *other* topics, worth 4 answers, updated
///   with that topic's answers (a topic never practised is estimated at the learner's overall
///   level, which is itself 60% for a newcomer);
/// - each topic × difficulty: the topic's figure from its *other* difficulties, worth 8 answers,
///   updated with that cell's answers (hard questions get their own figure once there is evidence).
/// Leaving a level's own answers out of its prior keeps any answer from counting twice.
/// A topic's accuracy is its difficulty cells averaged by how many pool questions each has.
/// Questions the learner never saw thus count through their topic's estimate.
///
/// **2. How likely is a pass?** Each section of the state's test (signs / rules / all) is dealt
/// out over the topics it admits in proportion to how many pool questions each topic has (largest
/// remainder), so a 20-question rules section of a pool that is ¼ right-of-way asks 5 of those,
/// each answered right with that topic's accuracy. Answers are independent given the accuracies,
/// so a section's number of right answers follows a Poisson-binomial distribution, computed
/// exactly by dynamic programming. Outcomes below a section's own minimum are dropped (NY: at least
/// 2 of 4 signs; OH: 15 of 20 in each part; VA: 10 of 10 signs), the counted sections are
/// convolved into the overall total, and the probability that the total reaches the overall mark
/// is summed (the state's `passCorrect`, else 80% as `ExamScoring` does). A `separate` test (NC's
/// 12 signs) is an independent event that must also be passed: its probability multiplies in.
///
/// The figure is a plug-in estimate (accuracies at their posterior means); `passProbabilityRange`
/// shows how much it moves when the accuracies move by about one standard deviation. The
/// posterior standard deviation of a figure with `k` pseudo-answers and `n` weighted answers is
/// taken as `sqrt(p(1 − p) / (k + n + 1))`.
public enum Readiness {
    /// Evidence loses half its weight every this many days.
    public static let halfLifeDays = 14.0
    /// What a newcomer is assumed to know: a bit better than guessing among 3–4 answers.
    public static let priorMean = 0.6
    /// Pseudo-answers behind the overall prior (the learner's overall level).
    public static let overallPriorStrength = 20.0
    /// Pseudo-answers behind each topic's prior (centred on the learner's overall level).
    public static let topicPriorStrength = 4.0
    /// Pseudo-answers behind each topic × difficulty prior (centred on the topic's level).
    public static let difficultyPriorStrength = 8.0
    /// An earlier answer to a question counts this much relative to its latest one.
    public static let earlierAnswerWeight = 0.5
    /// At most this many earlier answers of one question count.
    public static let earlierAnswersCounted = 4

    static let topicCount = Topic.allCases.count
    static let difficultyCount = Difficulty.allCases.count

    // MARK: - Estimate

    public static func estimate(progress: [String: QuestionStats], pool: [Question], format: TestFormat, now: Date) -> ReadinessEstimate {
        let cells = topicCount * difficultyCount
        var poolCount = [Int](repeating: 0, count: cells)
        var weighted = [Double](repeating: 0, count: cells)   // recency-weighted answers
        var weightedRight = [Double](repeating: 0, count: cells)
        var answered = 0
        let halfLife = halfLifeDays * 86_400

        for q in pool {
            let cell = topicIndex(q.category) * difficultyCount + difficultyIndex(q.difficulty)
            poolCount[cell] += 1
            guard let s = progress[q.id], s.seen > 0 else { continue }
            let seen = s.seen
            let right = min(max(s.correct, 0), seen)
            answered += seen
            let age = max(0, now.timeIntervalSince(s.lastAnsweredAt))
            let recency = exp2(-age / halfLife)
            // The latest answer counts fully; the earlier ones less, and only so many of them.
            let lastRight = s.lastCorrect && right > 0 ? 1 : 0
            var n = 1.0, c = Double(lastRight)
            let earlier = seen - 1
            if earlier > 0 {
                let earlierRight = min(max(right - lastRight, 0), earlier)
                let each = earlierAnswerWeight * Double(min(earlier, earlierAnswersCounted)) / Double(earlier)
                n += each * Double(earlier)
                c += each * Double(earlierRight)
            }
            weighted[cell] += recency * n
            weightedRight[cell] += recency * c
        }

        // Overall → topic → topic × difficulty, each shrunk toward the level above.
        let evidence = weighted.reduce(0, +), totalRight = weightedRight.reduce(0, +)
        let overall = (priorMean * overallPriorStrength + totalRight) / (overallPriorStrength + evidence)
        let overallSD = (overall * (1 - overall) / (overallPriorStrength + evidence + 1)).squareRoot()
        var accuracy = [Double](repeating: overall, count: topicCount)
        var shared = [Double](repeating: 1, count: topicCount)     // weight of the overall level in the topic's figure
        var own = [Double](repeating: 0, count: topicCount)        // the topic's own standard deviation
        var topicPool = [Int](repeating: 0, count: topicCount)
        var byTopic: [Topic: Double] = [:]
        for (t, topic) in Topic.allCases.enumerated() {
            var n = 0.0, c = 0.0, count = 0
            for d in 0..<difficultyCount {
                n += weighted[t * difficultyCount + d]; c += weightedRight[t * difficultyCount + d]
                count += poolCount[t * difficultyCount + d]
            }
            topicPool[t] = count
            guard count > 0 else { continue }
            // Each level's prior is the level above computed from the *other* answers, so no answer
            // counts twice.
            let othersOverall = (priorMean * overallPriorStrength + totalRight - c) / (overallPriorStrength + evidence - n)
            var mixed = 0.0
            for d in 0..<difficultyCount {
                let cell = t * difficultyCount + d
                let othersTopic = (othersOverall * topicPriorStrength + c - weightedRight[cell]) / (topicPriorStrength + n - weighted[cell])
                let p = (othersTopic * difficultyPriorStrength + weightedRight[cell]) / (difficultyPriorStrength + weighted[cell])
                mixed += p * Double(poolCount[cell])
            }
            mixed /= Double(count)
            accuracy[t] = mixed
            shared[t] = topicPriorStrength / (topicPriorStrength + n)
            own[t] = (mixed * (1 - mixed) / (topicPriorStrength + n + 1)).squareRoot()
            byTopic[topic] = mixed
        }

        // The range: move every topic in proportion to its uncertainty, scaled so the pool-weighted
        // accuracy moves by one standard deviation (the overall level is common to all topics,
        // each topic's own uncertainty independent).
        let poolSize = Double(max(pool.count, 1))
        var sharedPart = 0.0, ownVariance = 0.0, spread = 0.0
        var step = [Double](repeating: overallSD, count: topicCount)
        for t in 0..<topicCount where topicPool[t] > 0 {
            let w = Double(topicPool[t]) / poolSize
            sharedPart += w * shared[t]
            ownVariance += w * w * own[t] * own[t]
            step[t] = (shared[t] * shared[t] * overallSD * overallSD + own[t] * own[t]).squareRoot()
            spread += w * step[t]
        }
        let mixtureSD = (sharedPart * sharedPart * overallSD * overallSD + ownVariance).squareRoot()
        let scale = spread > 0 ? mixtureSD / spread : 0
        var low = accuracy, high = accuracy
        for t in 0..<topicCount {
            low[t] = max(0, accuracy[t] - step[t] * scale); high[t] = min(1, accuracy[t] + step[t] * scale)
        }
        let central = exactPassProbability(format: format, sectionSuccess: sectionSuccess(format: format, topicPool: topicPool, accuracy: accuracy, fallback: overall))
        let lowP = exactPassProbability(format: format, sectionSuccess: sectionSuccess(format: format, topicPool: topicPool, accuracy: low,
                                                                                       fallback: max(0, overall - overallSD)))
        let highP = exactPassProbability(format: format, sectionSuccess: sectionSuccess(format: format, topicPool: topicPool, accuracy: high,
                                                                                        fallback: min(1, overall + overallSD)))
        return ReadinessEstimate(passProbability: central, passProbabilityRange: min(lowP, central)...max(highP, central),
                                 accuracyByTopic: byTopic, answered: answered, evidence: evidence)
    }

    // MARK: - Test composition

    /// Per-question success probabilities of each section (in `format.sections` order) for a
    /// learner with the given accuracy per topic: each section's questions are dealt out over the
    /// topics it admits in proportion to the pool (see `Readiness`). Topics missing from
    /// `topicAccuracy` use `fallback`; so does a section whose pool has no question at all.
    static func sectionSuccess(format: TestFormat, pool: [Question], topicAccuracy: [Topic: Double], fallback: Double = priorMean) -> [[Double]] {
        var topicPool = [Int](repeating: 0, count: topicCount)
        for q in pool { topicPool[topicIndex(q.category)] += 1 }
        let accuracy = Topic.allCases.map { topicAccuracy[$0] ?? fallback }
        return sectionSuccess(format: format, topicPool: topicPool, accuracy: accuracy, fallback: fallback)
    }

    static func sectionSuccess(format: TestFormat, topicPool: [Int], accuracy: [Double], fallback: Double) -> [[Double]] {
        format.sections.map { section in
            let n = max(0, section.questions)
            let weights = Topic.allCases.enumerated().map { t, topic in section.pool.admitsTopic(topic) ? topicPool[t] : 0 }
            guard weights.reduce(0, +) > 0 else { return [Double](repeating: fallback, count: n) }
            let counts = apportion(n, weights: weights)
            var ps: [Double] = []
            ps.reserveCapacity(n)
            for t in 0..<topicCount where counts[t] > 0 {
                ps.append(contentsOf: repeatElement(accuracy[t], count: counts[t]))
            }
            return ps
        }
    }

    /// Splits `n` in proportion to `weights` (largest remainder; ties to the earlier index).
    static func apportion(_ n: Int, weights: [Int]) -> [Int] {
        let total = weights.reduce(0, +)
        guard total > 0, n > 0 else { return [Int](repeating: 0, count: weights.count) }
        var counts = weights.map { n * $0 / total }
        let remainders = weights.map { n * $0 % total }
        var left = n - counts.reduce(0, +)
        for i in weights.indices.sorted(by: { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }) where left > 0 {
            counts[i] += 1; left -= 1
        }
        return counts
    }

    // MARK: - Exact pass probability

    /// The exact probability of passing `format` when question `j` of section `i` is answered right
    /// with probability `sectionSuccess[i][j]`, independently. Each counted section's number of
    /// right answers is Poisson-binomial (computed exactly); outcomes under the section's own
    /// minimum fail; the counted sections' totals must reach `format.passCorrect` (else 80%,
    /// rounded up, as `ExamScoring` does); each `separate` section must reach its own minimum and
    /// multiplies in as an independent event. A missing section has no questions.
    public static func exactPassProbability(format: TestFormat, sectionSuccess: [[Double]]) -> Double {
        var total: [Double] = [1]        // distribution of right answers over the counted sections
        var totalQuestions = 0
        var separatePass = 1.0
        for (i, section) in format.sections.enumerated() {
            let ps = i < sectionSuccess.count ? sectionSuccess[i] : []
            var dist = correctDistribution(ps)
            let minimum = section.passCorrect ?? 0
            if section.separate {
                separatePass *= tail(dist, from: minimum)
                continue
            }
            for k in 0..<min(max(minimum, 0), dist.count) { dist[k] = 0 }
            total = convolve(total, dist)
            totalQuestions += ps.count
        }
        let needed = format.passCorrect ?? Int((Double(totalQuestions) * 0.8).rounded(.up))
        return min(1, max(0, tail(total, from: needed) * separatePass))
    }

    /// `d[k]` = probability of exactly `k` right answers (Poisson-binomial, O(n²)).
    static func correctDistribution(_ ps: [Double]) -> [Double] {
        var d = [Double](repeating: 0, count: ps.count + 1)
        d[0] = 1
        for (i, raw) in ps.enumerated() {
            let p = raw.isNaN ? 0 : min(max(raw, 0), 1), q = 1 - p
            var k = i + 1
            while k > 0 { d[k] = d[k] * q + d[k - 1] * p; k -= 1 }
            d[0] *= q
        }
        return d
    }

    static func convolve(_ a: [Double], _ b: [Double]) -> [Double] {
        var c = [Double](repeating: 0, count: a.count + b.count - 1)
        for i in a.indices where a[i] != 0 {
            for j in b.indices { c[i + j] += a[i] * b[j] }
        }
        return c
    }

    static func tail(_ d: [Double], from k: Int) -> Double {
        var s = 0.0
        for i in max(k, 0)..<max(d.count, max(k, 0)) { s += d[i] }
        return s
    }

    static func topicIndex(_ t: Topic) -> Int {
        switch t {
        case .roadSigns: 0
        case .rightOfWay: 1
        case .speedLimits: 2
        case .parking: 3
        case .safeDriving: 4
        case .alcoholDrugs: 5
        case .emergencies: 6
        case .stateSpecific: 7
        }
    }

    static func difficultyIndex(_ d: Difficulty) -> Int {
        switch d {
        case .easy: 0
        case .medium: 1
        case .hard: 2
        }
    }
}

extension SectionPool {
    /// Whether the section draws questions of `topic` (the same rule as `admits`).
    func admitsTopic(_ topic: Topic) -> Bool {
        switch self {
        case .signs: return topic == .roadSigns
        case .rules: return topic != .roadSigns
        case .all: return true
        }
    }
}
