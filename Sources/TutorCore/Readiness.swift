import Foundation

/// How ready the learner is for their state's real permit test, right now.
public struct ReadinessEstimate: Equatable, Sendable {
    /// Estimated probability (0...1) of passing the state's real test now, scored by its real
    /// rules (overall mark, each section's own minimum, separate tests).
    public var passProbability: Double
    /// The same calculation with what the learner knows of unseen questions one standard
    /// deviation lower (higher): wide while little is known.
    public var passProbabilityRange: ClosedRange<Double>
    /// Chance of answering a test question of the topic right (pool questions averaged).
    public var accuracyByTopic: [Topic: Double]
    /// Answers given to questions of this pool, all time.
    public var answered: Int
    /// Pool questions answered at least once, and the pool's size: "you've seen 40 of 347".
    public var seen: Int
    public var poolSize: Int
    /// Topics of the pool with no question answered yet.
    public var topicsNotTried: [Topic]
    /// Whether there is enough evidence, across enough of the test's topics, to show a number.
    public var isShown: Bool
    /// What recent practice tests added (see `Readiness.TestEvidence`).
    public var tests: Readiness.TestEvidence = .init()
    /// The knowledge model's expected accuracy on a test question now (tests aside).
    public var modelAccuracy: Double = 0
}

/// The "am I ready?" number: the probability that the learner would pass their state's real
/// permit test if they took it now.
///
/// **Each question of the pool** gets a chance of being answered right:
/// - answered before (and not only by recognition): its traced knowledge (`Knowledge`), faded to now;
/// - never answered: a first-attempt prior for its topic and difficulty — a newcomer's accuracy,
///   moved by how this learner's *first* answers (to any question, then to the topic's) compare
///   with a newcomer's, shrunk toward no change while there are few. Never the learner's own
///   average: repeated answers to drilled questions say nothing about questions never seen.
/// **The test** is dealt out by the same blueprint the practice tests use (`SectionBlueprint`):
/// each section's topic quotas in proportion to the pool, the state's own questions in
/// proportion to their share, each slot answered right with the mean chance of its bucket. A
/// section's right answers then follow a Poisson-binomial distribution, computed exactly; outcomes
/// under a section's own minimum fail (NY 2 of 4 signs, OH 15 of 20 each), the counted sections
/// are convolved and summed from the overall mark, and a separate test (NC's signs) multiplies in.
///
/// Its calibration is measured by `permitready bench --calibration` on simulated learners whose
/// true knowledge follows a different model (see the README).
public enum Readiness {
    /// Pseudo-answers behind "this learner is like a newcomer" (all first answers). Strong on
    /// purpose: right answers in one topic say little about another.
    public static let learnerPriorStrength = 12.0
    /// A first answer this soon after a lesson's check taught the question is not a first answer.
    public static let taughtEchoDays = 30.0
    /// Pseudo-answers behind "this topic is like the learner's others" (the topic's first answers).
    public static let topicPriorStrength = 10.0
    /// A number is shown once this many first answers cover this share of the test's blueprint.
    public static let minimumFirstAnswers = 30
    public static let minimumCoveredShare = 0.8
    /// Recent practice tests: a test's weight halves every this many days (knowledge moves on)…
    public static let testHalfLifeDays = 7.0
    /// … a retake of a fixed test counts this much (its questions were seen and their answers
    /// shown: recognition, not knowledge) …
    public static let retakeWeight = 0.05
    /// … and only the last this-many fresh tests count (and retakes among the last this-many results).
    public static let testsConsidered = 6
    /// The knowledge model counts as at most this many answers of a fresh test: its structure
    /// (priors, fading) can be wrong in ways its own spread does not show, and a real test of the
    /// state's format is a direct sample of what is predicted. But one 20-question test is a small
    /// sample (an independent audit's steady learner scored 10/20 at an expected 13.7 and was read
    /// 20% at a true 61%): 60, not 30, answers. At 60 the bench's four generators read 0.1-0.6
    /// points closer and the audit's crammers 1.2 closer (the README has the figures).
    public static let maxModelStrength = 60.0
    /// The shown range is the estimate at the accuracy this many standard deviations either side.
    public static let rangeDeviations = 1.0
    /// "Ready to test": the last this-many different full practice tests passed with margin…
    public static let readyTestsNeeded = 3
    /// … of at least the pass mark plus this many points …
    public static let readyMarginPoints = 10.0
    /// … and a predicted chance at least this high.
    public static let readyChance = 0.85
    /// … read off the range's low end, with a margin: a range holds the truth about nine times in
    /// ten, and "Ready" must hold whenever it is shown (at a low end of 85% or 88% the bench found
    /// a learner shown Ready at a true 82%). The learner is told "90%+" (`ready_missing`).
    public static let readyLowEnd = 0.90

    /// What this learner's *first* answers say about questions they have not studied: how they
    /// compare with a newcomer, overall and per topic, each shrunk toward no difference.
    public struct FirstAnswers: Sendable {
        public private(set) var count = 0
        var residual = 0.0
        var topicResidual: [Topic: Double] = [:]
        var topicCount: [Topic: Int] = [:]

        /// `positions` (each pool question's index, from `Banks.poolPositions`) lets a learner who
        /// has seen a few questions skip walking the whole pool; the sums still run in pool order,
        /// so the figures are the same to the last bit either way.
        public init(progress: [String: QuestionStats], pool: [Question], positions: [String: Int]? = nil) {
            if let positions, progress.count * 2 < pool.count {
                let seen = progress.keys.compactMap { positions[$0] }.sorted()
                self.init(progress: progress, questions: seen.lazy.map { pool[$0] })
            } else {
                self.init(progress: progress, questions: pool)
            }
        }

        private init(progress: [String: QuestionStats], questions: some Sequence<Question>) {
            for q in questions {
                guard let s = progress[q.id], s.seen > 0 else { continue }
                // Answered only in a lesson's check, minutes after being taught: not a first answer
                // (rows from before first answers were stored fall back on their counts).
                if s.firstCorrect == nil && s.taughtAt != nil { continue }
                // A first answer days after a lesson taught it is still partly the lesson's
                // (a reading fades fast): it says little about questions never taught.
                if let taught = s.taughtAt, let first = s.firstAnsweredAt,
                    first.timeIntervalSince(taught) < Readiness.taughtEchoDays * 86_400
                {
                    continue
                }
                let first = s.firstCorrect ?? (s.correct == s.seen)
                let g = Knowledge.guess(q)
                let expected = Knowledge.rightChance(known: Knowledge.newcomerKnown(q), guess: g)
                let r = ((first ? 1 : 0) - expected) / (1 - Knowledge.slip - g)
                residual += r
                count += 1
                topicResidual[q.category, default: 0] += r
                topicCount[q.category, default: 0] += 1
            }
        }

        var learnerShift: Double { residual / (Double(count) + learnerPriorStrength) }

        func topicShift(_ t: Topic) -> Double {
            let n = Double(topicCount[t] ?? 0)
            return ((topicResidual[t] ?? 0) - n * learnerShift) / (n + topicPriorStrength)
        }

        func tried(_ t: Topic) -> Bool { topicCount[t] != nil }

        /// One standard deviation of the pool-weighted average shift: the learner-level part is
        /// common to every topic, the topics' own parts are independent and mostly average out.
        func averageShiftSD(_ pool: [Question]) -> Double {
            var weight: [Topic: Double] = [:]
            for q in pool { weight[q.category, default: 0] += 1 }
            let total = Double(max(pool.count, 1))
            var variance = 0.5 / (Double(count) + learnerPriorStrength)
            for (t, w) in weight {
                variance += (w / total) * (w / total) * 0.5 / (Double(topicCount[t] ?? 0) + topicPriorStrength)
            }
            return variance.squareRoot()
        }

        /// The chance this learner knows `q` without having studied it, shifted by `offset`.
        public func unstudiedKnown(_ q: Question, offset: Double = 0) -> Double {
            // A topic never tried is at a newcomer's level: right answers elsewhere say little about
            // it (a learner doing worse than a newcomer elsewhere is taken to do so there too).
            let shift = tried(q.category) ? learnerShift + topicShift(q.category) : min(0, learnerShift)
            return min(0.99, max(0.01, Knowledge.newcomerKnown(q) + shift + offset))
        }
    }

    public static func estimate(
        progress: [String: QuestionStats], pool: [Question], format: TestFormat, now: Date,
        tests: [QuizResult] = []
    ) -> ReadinessEstimate {
        let firsts = FirstAnswers(progress: progress, pool: pool)
        var answered = 0
        var seen = 0
        for q in pool {
            if let s = progress[q.id], s.seen > 0 {
                answered += s.seen
                seen += 1
            }
        }

        let sd = firsts.averageShiftSD(pool)
        func chances(_ z: Double) -> [String: Double] {
            var out: [String: Double] = [:]
            out.reserveCapacity(pool.count)
            for q in pool {
                let g = Knowledge.guess(q)
                let floor = firsts.unstudiedKnown(q, offset: z * sd)
                let known = progress[q.id].flatMap { Knowledge.known($0, at: now, floor: floor) } ?? floor
                out[q.id] = Knowledge.rightChance(known: known, guess: g)
            }
            return out
        }
        let central = chances(0)
        var byTopic: [Topic: (Double, Int)] = [:]
        for q in pool {
            let c = byTopic[q.category] ?? (0, 0)
            byTopic[q.category] = (c.0 + central[q.id]!, c.1 + 1)
        }
        // The blueprint depends only on the pool: dealt once for the estimate and its range.
        let blueprints = SectionBlueprint.forTest(format, pool: pool)
        func slots(_ chance: [String: Double]) -> [[Double]] {
            sectionSuccess(format: format, pool: pool, blueprints: blueprints) { chance[$0.id] ?? 0 }
        }
        let model = slots(central)
        let modelLow = meanChance(slots(chances(-1)))
        let modelHigh = meanChance(slots(chances(1)))
        // A topic never tried stays at a newcomer's level: what tests scored says nothing about it.
        let untried = blueprints.map { b in b.quotas.flatMap { repeatElement(!firsts.tried($0.topic), count: $0.total) }
        }

        // The knowledge model's expected accuracy on a test question, as a Beta prior worth at most
        // `maxModelStrength` answers, updated with what recent practice tests scored, section by
        // section (a sign section failed on the last test weighs on that section).
        let modelMean = meanChance(model)
        let evidence = TestEvidence(results: tests, now: now, modelNow: modelMean)
        let modelSD = max((modelHigh - modelLow) / 2, 0.01)
        let strength = min(maxModelStrength, max(2, modelMean * (1 - modelMean) / (modelSD * modelSD) - 1))
        let targets = sectionTargets(
            format: format, model: model, untried: untried, strength: strength, evidence: evidence)
        let accuracy = (strength * modelMean + evidence.correct) / (strength + evidence.total)
        // How sure the accuracy is: the evidence's spread, and what is not known of the questions
        // never seen (their share of the pool times how unsure first answers leave the learner's level).
        let unseen = 1 - Double(seen) / Double(max(pool.count, 1))
        let coverageSD = unseen * sd * (1 - Knowledge.slip - 0.25)
        let evidenceSD = (accuracy * (1 - accuracy) / (strength + evidence.total + 1)).squareRoot()
        let spread = rangeDeviations * (evidenceSD * evidenceSD + coverageSD * coverageSD).squareRoot()
        func pass(offset: Double) -> Double {
            let sections = model.indices.map { i in
                targets[i].map { target in
                    shifted(model[i], keeping: untried[i], toMean: min(0.995, max(0.005, target + offset)))
                } ?? model[i]
            }
            return exactPassProbability(format: format, sectionSuccess: sections)
        }
        let p = pass(offset: 0)
        // The range is as wide as the accuracy's uncertainty makes it, but centred on the estimate:
        // the pass chance bends with accuracy (a 5-point gain matters more near the pass mark), so
        // the raw ends are lopsided and their middle — what a reader takes as the number — would
        // drift from the estimate toward 50%.
        let halfWidth = (pass(offset: spread) - pass(offset: -spread)) / 2
        let low = max(0, p - halfWidth)
        let high = min(1, p + halfWidth)

        // Shown only when first answers cover most of what the test asks.
        var covered = 0
        var asked = 0
        for blueprint in blueprints {
            for quota in blueprint.quotas {
                asked += quota.total
                if firsts.tried(quota.topic) { covered += quota.total }
            }
        }
        let topicsInPool = Set(pool.map(\.category))
        let notTried = topicsInPool.filter { !firsts.tried($0) }.sorted()
        let shown =
            firsts.count >= minimumFirstAnswers && asked > 0 && Double(covered) / Double(asked) >= minimumCoveredShare
        return ReadinessEstimate(
            passProbability: p, passProbabilityRange: min(low, p)...max(high, p),
            accuracyByTopic: byTopic.mapValues { $0.0 / Double($0.1) }, answered: answered,
            seen: seen, poolSize: pool.count, topicsNotTried: notTried, isShown: shown, tests: evidence,
            modelAccuracy: modelMean)
    }

    /// The mean of every slot's chance: the expected share of a test answered right.
    static func meanChance(_ sections: [[Double]]) -> Double {
        let n = sections.reduce(0) { $0 + $1.count }
        return n == 0 ? 0 : sections.reduce(0) { $0 + $1.reduce(0, +) } / Double(n)
    }

    /// Pass probability when each pool question is answered right with `chance[id]`.
    public static func passProbability(
        format: TestFormat, pool: [Question], chance: [String: Double],
        blueprints: [SectionBlueprint]? = nil
    ) -> Double {
        exactPassProbability(
            format: format,
            sectionSuccess: sectionSuccess(format: format, pool: pool, blueprints: blueprints) { chance[$0.id] ?? 0 })
    }

    /// Per-slot success probabilities of each section (in `format.sections` order): the blueprint's
    /// quotas, each slot at the mean chance of its (topic, origin) bucket.
    static func sectionSuccess(
        format: TestFormat, pool: [Question], blueprints: [SectionBlueprint]? = nil,
        chance: (Question) -> Double
    ) -> [[Double]] {
        let blueprints = blueprints ?? SectionBlueprint.forTest(format, pool: pool)
        return format.sections.enumerated().map { s, section in
            var sums: [String: (Double, Int)] = [:]
            for q in pool where section.pool.asksOnTest(q) {
                let key = "\(q.category.rawValue)|\(q.stateCode != nil)"
                let c = sums[key] ?? (0, 0)
                sums[key] = (c.0 + chance(q), c.1 + 1)
            }
            func mean(_ t: Topic, _ own: Bool) -> Double? {
                sums["\(t.rawValue)|\(own)"].map { $0.0 / Double($0.1) }
            }
            var ps: [Double] = []
            for quota in blueprints[s].quotas {
                let own = mean(quota.topic, true) ?? mean(quota.topic, false) ?? 0
                let uni = mean(quota.topic, false) ?? own
                ps += repeatElement(own, count: quota.stateOwn)
                ps += repeatElement(uni, count: quota.universal)
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
        for i in weights.indices.sorted(by: {
            remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1
        }) where left > 0 {
            counts[i] += 1
            left -= 1
        }
        return counts
    }

    /// "Ready to test", or what is still missing.
    public struct ReadyStatus: Equatable, Sendable {
        /// Of the last `readyTestsNeeded` different full practice tests, how many were passed with margin.
        public var testsPassedWithMargin: Int
        public var topicsNotTried: Int
        public var chanceHigh: Bool
        public var isReady: Bool {
            testsPassedWithMargin >= Readiness.readyTestsNeeded && topicsNotTried == 0 && chanceHigh
        }
    }

    /// Ready needs the last three full-length practice tests of this state *taken fresh* passed
    /// with margin: a fixed test's first try, or a random one. A retake is memory of its answers,
    /// not knowledge (the bench's repeaters memorised tests 1-3 and were shown Ready at a true 82%).
    /// Also every topic tried, and the range's low end high.
    public static func readyStatus(results: [QuizResult], stateCode: String, estimate: ReadinessEstimate) -> ReadyStatus
    {
        var taken = Set<Int>()
        var fresh: [QuizResult] = []
        for r in results where r.stateCode == stateCode && r.timedOut != true {
            guard case .practiceTest(let n) = r.mode else { continue }
            if n == 0 || (taken.insert(n).inserted && r.retake != true) { fresh.append(r) }
        }
        let last = fresh.suffix(readyTestsNeeded)
        return ReadyStatus(
            testsPassedWithMargin: last.filter(\.passedWithMargin).count,
            topicsNotTried: estimate.topicsNotTried.count,
            chanceHigh: estimate.isShown && estimate.passProbabilityRange.lowerBound >= readyLowEnd)
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
