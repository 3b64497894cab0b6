import Foundation
import Testing
@testable import TutorCore

@Suite struct ReadinessTests {
    // The real formats from states.json.
    static let ny = TestFormat(questions: 20, passCorrect: 14, sections: [
        TestSection(name: "Road signs", pool: .signs, questions: 4, passCorrect: 2),
        TestSection(name: "Rules of the road", pool: .rules, questions: 16),
    ])
    static let oh = TestFormat(questions: 40, passCorrect: 30, sections: [
        TestSection(name: "Road signs", pool: .signs, questions: 20, passCorrect: 15),
        TestSection(name: "Traffic laws", pool: .rules, questions: 20, passCorrect: 15),
    ])
    static let va = TestFormat(questions: 35, passCorrect: 30, sections: [
        TestSection(name: "Road signs", pool: .signs, questions: 10, passCorrect: 10),
        TestSection(name: "General knowledge", pool: .rules, questions: 25, passCorrect: 20),
    ])
    static let nc = TestFormat(questions: 25, passCorrect: 20, sections: [
        TestSection(name: "Knowledge test", pool: .all, questions: 25),
        TestSection(name: "Road-sign test", pool: .signs, questions: 12, passCorrect: 9, separate: true),
    ])
    static let ca = TestFormat(questions: 46, passCorrect: 38, sections: [TestSection(name: "Knowledge test", pool: .all, questions: 46)])
    /// MI: count unknown; the loader puts the 25-question stand-in into the section.
    static let mi = TestFormat(questions: nil, passCorrect: nil, sections: [
        TestSection(name: "Knowledge test", pool: .all, questions: TestFormat.unknownCountStandIn),
    ])
    static func plain(_ n: Int, _ pass: Int) -> TestFormat {
        TestFormat(questions: n, passCorrect: pass, sections: [TestSection(name: "Knowledge test", pool: .all, questions: n)])
    }

    static func choose(_ n: Int, _ k: Int) -> Double {
        guard k >= 0, k <= n else { return 0 }
        var c = 1.0
        for i in 0..<min(k, n - k) { c = c * Double(n - i) / Double(i + 1) }
        return c.rounded()
    }
    static func pmf(_ n: Int, _ k: Int, _ p: Double) -> Double {
        choose(n, k) * pow(p, Double(k)) * pow(1 - p, Double(n - k))
    }
    static func atLeast(_ n: Int, _ k: Int, _ p: Double) -> Double {
        (max(k, 0)...n).reduce(0) { $0 + pmf(n, $1, p) }
    }

    // MARK: - Exact pass probability

    @Test func certainAnswersPassAndHopelessOnesFail() {
        for format in [Self.ny, Self.oh, Self.va, Self.nc, Self.ca, Self.mi] {
            let ones = format.sections.map { [Double](repeating: 1, count: $0.questions) }
            let zeros = format.sections.map { [Double](repeating: 0, count: $0.questions) }
            #expect(abs(Readiness.exactPassProbability(format: format, sectionSuccess: ones) - 1) < 1e-12)
            #expect(Readiness.exactPassProbability(format: format, sectionSuccess: zeros) == 0)
        }
    }

    @Test func oneSectionIsTheBinomialTail() {
        let p = Readiness.exactPassProbability(format: Self.plain(20, 14), sectionSuccess: [[Double](repeating: 0.7, count: 20)])
        var tail = 0.0
        for k in 14...20 { tail += Self.choose(20, k) * pow(0.7, Double(k)) * pow(0.3, Double(20 - k)) }
        #expect(abs(p - tail) < 1e-12)
        #expect(abs(tail - 0.608009812) < 1e-9)   // the textbook figure
        // MI: no pass mark given, so 80% of the 25 stand-in questions, as ExamScoring does.
        let mi = Readiness.exactPassProbability(format: Self.mi, sectionSuccess: [[Double](repeating: 0.75, count: 25)])
        #expect(abs(mi - Self.atLeast(25, 20, 0.75)) < 1e-12)
    }

    /// Every outcome of a small test with all the rules (section minimum, plain section, separate
    /// test), scored by ExamScoring: the DP must agree with brute force to the last digit.
    @Test func agreesWithScoringEveryOutcome() {
        let format = TestFormat(questions: 7, passCorrect: 5, sections: [
            TestSection(name: "Signs", pool: .signs, questions: 3, passCorrect: 2),
            TestSection(name: "Rules", pool: .rules, questions: 4),
            TestSection(name: "Sign test", pool: .signs, questions: 3, passCorrect: 2, separate: true),
        ])
        let success: [[Double]] = [[0.9, 0.35, 0.6], [0.8, 0.55, 0.7, 0.95], [0.5, 0.85, 0.65]]
        let flat = success.flatMap { $0 }
        let sectionOf = success.enumerated().flatMap { i, ps in Array(repeating: i, count: ps.count) }
        var brute = 0.0
        for mask in 0..<(1 << flat.count) {
            let right = flat.indices.map { mask & (1 << $0) != 0 }
            guard ExamScoring.score(format: format, sectionOfQuestion: sectionOf, correct: right).passed else { continue }
            brute += flat.indices.reduce(1.0) { $0 * (right[$1] ? flat[$1] : 1 - flat[$1]) }
        }
        #expect(brute > 0.2 && brute < 0.8)
        #expect(abs(Readiness.exactPassProbability(format: format, sectionSuccess: success) - brute) < 1e-12)
    }

    /// NY: 14 of 20 overall AND at least 2 of the 4 signs.
    @Test func newYorkSignMinimumCountsWhenSignsAreWeak() {
        let signs = [Double](repeating: 0.3, count: 4), rules = [Double](repeating: 0.9, count: 16)
        let ny = Readiness.exactPassProbability(format: Self.ny, sectionSuccess: [signs, rules])
        let hand = (2...4).reduce(0.0) { $0 + Self.pmf(4, $1, 0.3) * Self.atLeast(16, 14 - $1, 0.9) }
        #expect(abs(ny - hand) < 1e-12)
        // The same questions without the sign rule pass more often.
        let withoutRule = Readiness.exactPassProbability(format: Self.plain(20, 14), sectionSuccess: [signs + rules])
        #expect(withoutRule - ny > 0.1)
        // Strong signs: the rule hardly matters.
        let strong = [[Double](repeating: 0.95, count: 4), rules]
        #expect(abs(Readiness.exactPassProbability(format: Self.ny, sectionSuccess: strong)
                    - Readiness.exactPassProbability(format: Self.plain(20, 14), sectionSuccess: [strong.flatMap { $0 }])) < 0.002)
    }

    /// OH: 15 of 20 in each part (so 30 of 40 overall follows).
    @Test func ohioNeedsEachHalf() {
        let signs = [Double](repeating: 0.95, count: 20), rules = [Double](repeating: 0.7, count: 20)
        let oh = Readiness.exactPassProbability(format: Self.oh, sectionSuccess: [signs, rules])
        #expect(abs(oh - Self.atLeast(20, 15, 0.95) * Self.atLeast(20, 15, 0.7)) < 1e-12)
        let pooled = Readiness.exactPassProbability(format: Self.plain(40, 30), sectionSuccess: [signs + rules])
        #expect(pooled - oh > 0.2)   // great signs cannot make up for weak rules
    }

    /// VA: all 10 signs right, and 20 of 25 rules.
    @Test func virginiaNeedsEverySign() {
        let va = Readiness.exactPassProbability(format: Self.va, sectionSuccess: [[Double](repeating: 0.9, count: 10), [Double](repeating: 0.85, count: 25)])
        #expect(abs(va - pow(0.9, 10) * Self.atLeast(25, 20, 0.85)) < 1e-12)
    }

    /// NC: 20 of 25, and separately 9 of 12 signs; the separate test is not in the 25.
    @Test func northCarolinaSignTestMultipliesIn() {
        let knowledge = [Double](repeating: 0.8, count: 25), signs = [Double](repeating: 0.7, count: 12)
        let nc = Readiness.exactPassProbability(format: Self.nc, sectionSuccess: [knowledge, signs])
        let main = Readiness.exactPassProbability(format: Self.plain(25, 20), sectionSuccess: [knowledge])
        #expect(abs(main - Self.atLeast(25, 20, 0.8)) < 1e-12)
        #expect(abs(nc - main * Self.atLeast(12, 9, 0.7)) < 1e-12)
        #expect(nc < main * 0.6)
    }

    // MARK: - Test composition

    @Test func sectionsAreDealtOutLikeThePool() {
        #expect(Readiness.apportion(20, weights: [0, 25, 10, 10, 30, 5, 5, 15]) == [0, 5, 2, 2, 6, 1, 1, 3])
        #expect(Readiness.apportion(4, weights: [1, 1, 1, 1, 1, 1, 0, 0]).reduce(0, +) == 4)
        #expect(Topic.allCases.map(Readiness.topicIndex) == Array(Topic.allCases.indices))
        #expect(Difficulty.allCases.map(Readiness.difficultyIndex) == Array(Difficulty.allCases.indices))

        let truth: [Topic: Double] = [.roadSigns: 0.5, .rightOfWay: 0.9]
        let pool = Self.pool(sizes: [.roadSigns: 10, .rightOfWay: 30])
        let success = Readiness.sectionSuccess(format: Self.ny, pool: pool, topicAccuracy: truth)
        #expect(success[0] == [Double](repeating: 0.5, count: 4))
        #expect(success[1] == [Double](repeating: 0.9, count: 16))
        let all = Readiness.sectionSuccess(format: Self.plain(20, 14), pool: pool, topicAccuracy: truth)[0]
        #expect(all.filter { $0 == 0.5 }.count == 5 && all.filter { $0 == 0.9 }.count == 15)
    }

    // MARK: - Estimate

    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    static let sizes: [Topic: Int] = [.roadSigns: 60, .rightOfWay: 40, .speedLimits: 25, .parking: 25, .safeDriving: 50,
                                      .alcoholDrugs: 20, .emergencies: 20, .stateSpecific: 30]
    static let synthetic = pool(sizes: sizes)
    /// A middling learner: pass chances between ¼ and ¾ on the harder formats.
    static let middling: [Topic: Double] = [.roadSigns: 0.9, .rightOfWay: 0.8, .speedLimits: 0.85, .parking: 0.75,
                                            .safeDriving: 0.85, .alcoholDrugs: 0.9, .emergencies: 0.8, .stateSpecific: 0.7]
    static let prepared: [Topic: Double] = [.roadSigns: 0.95, .rightOfWay: 0.88, .speedLimits: 0.9, .parking: 0.85,
                                            .safeDriving: 0.92, .alcoholDrugs: 0.95, .emergencies: 0.9, .stateSpecific: 0.8]

    static func pool(sizes: [Topic: Int]) -> [Question] {
        Topic.allCases.flatMap { topic in
            (0..<(sizes[topic] ?? 0)).map { i in
                Question(id: "\(topic.rawValue)-\(i)", category: topic, difficulty: Difficulty.allCases[i % 3],
                         questionText: "Q", answers: ["A", "B", "C"], correctAnswerIndex: 0, explanation: "E", source: "S")
            }
        }
    }

    /// A learner who answers right with the topic's true accuracy, questions drawn at random
    /// (repeats allowed), over the last three days.
    static func simulate(_ truth: [Topic: Double], answers: Int, seed: UInt64, pool: [Question] = synthetic) -> [String: QuestionStats] {
        var random = SeededRandom(seed: seed)
        var progress: [String: QuestionStats] = [:]
        for _ in 0..<answers {
            let q = pool[min(pool.count - 1, Int(random.unit() * Double(pool.count)))]
            let right = random.unit() <= truth[q.category, default: 0]
            let at = now.addingTimeInterval(-random.unit() * 3 * 86_400)
            progress[q.id, default: QuestionStats(lastAnsweredAt: at)].record(correct: right, at: at)
        }
        return progress
    }

    static func truePass(_ truth: [Topic: Double], _ format: TestFormat) -> Double {
        Readiness.exactPassProbability(format: format, sectionSuccess: Readiness.sectionSuccess(format: format, pool: synthetic, topicAccuracy: truth))
    }

    @Test func noAnswersGiveTheModestPrior() {
        let e = Readiness.estimate(progress: [:], pool: Self.synthetic, format: Self.ny, now: Self.now)
        let prior = Readiness.exactPassProbability(format: Self.ny, sectionSuccess: [[Double](repeating: 0.6, count: 4), [Double](repeating: 0.6, count: 16)])
        #expect(abs(e.passProbability - prior) < 1e-12)
        #expect(e.passProbability > 0.1 && e.passProbability < 0.5)
        #expect(e.answered == 0 && e.evidence == 0)
        #expect(Set(e.accuracyByTopic.keys) == Set(Topic.allCases))
        #expect(e.accuracyByTopic.values.allSatisfy { abs($0 - 0.6) < 1e-12 })
        #expect(e.passProbabilityRange.lowerBound < e.passProbability && e.passProbability < e.passProbabilityRange.upperBound)
    }

    @Test func twoLuckyAnswersAreNotMastery() {
        var progress: [String: QuestionStats] = [:]
        for id in ["parking-0", "parking-1"] { progress[id, default: QuestionStats(lastAnsweredAt: Self.now)].record(correct: true, at: Self.now) }
        let e = Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.ny, now: Self.now)
        let parking = e.accuracyByTopic[.parking] ?? 0
        #expect(parking > 0.6 && parking < 0.75)
        #expect(e.answered == 2)
        #expect(e.passProbability < 0.5)
    }

    @Test func oldAnswersCountLessThanRecentOnes() {
        let recent = Self.simulate(Self.prepared, answers: 400, seed: 9)
        let old = recent.mapValues { s -> QuestionStats in var s = s; s.lastAnsweredAt -= 60 * 86_400; return s }
        let prior = Readiness.estimate(progress: [:], pool: Self.synthetic, format: Self.ny, now: Self.now)
        let fresh = Readiness.estimate(progress: recent, pool: Self.synthetic, format: Self.ny, now: Self.now)
        let stale = Readiness.estimate(progress: old, pool: Self.synthetic, format: Self.ny, now: Self.now)
        #expect(fresh.answered == 400 && stale.answered == 400)
        #expect(stale.evidence < fresh.evidence / 10)   // 60 days ≈ four half-lives
        #expect(abs(stale.passProbability - prior.passProbability) < abs(fresh.passProbability - prior.passProbability))
        #expect(prior.passProbability < stale.passProbability && stale.passProbability < fresh.passProbability)
        for topic in Topic.allCases {
            let f = fresh.accuracyByTopic[topic]!, s = stale.accuracyByTopic[topic]!
            #expect(abs(s - 0.6) < abs(f - 0.6))
        }
        // Within one question, the latest answer outweighs the earlier ones: wrong twice then right
        // reads better than right then wrong twice.
        func one(_ answers: [Bool]) -> Double {
            var s = QuestionStats(lastAnsweredAt: Self.now)
            for a in answers { s.record(correct: a, at: Self.now) }
            return Readiness.estimate(progress: ["parking-0": s], pool: Self.synthetic, format: Self.ny, now: Self.now).accuracyByTopic[.parking]!
        }
        #expect(one([false, false, true]) > one([true, false, false]))
    }

    @Test func answersOutsideThePoolAreIgnored() {
        let progress = Self.simulate(Self.prepared, answers: 300, seed: 3)
        var withStrangers = progress
        for i in 0..<50 { withStrangers["tx-\(i)"] = QuestionStats(seen: 3, correct: 0, lastCorrect: false, lastAnsweredAt: Self.now, missed: true) }
        #expect(Readiness.estimate(progress: withStrangers, pool: Self.synthetic, format: Self.oh, now: Self.now)
                == Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.oh, now: Self.now))
    }

    /// Averaged over many simulated learners, the estimate is the true pass probability: the model
    /// neither flatters nor sells short (hard case: a middling learner, steep pass curves).
    @Test func simulatedLearnersAreCalibrated() {
        let formats = [("NY", Self.ny), ("OH", Self.oh), ("CA", Self.ca)]
        var sums = [Double](repeating: 0, count: formats.count)
        let learners = 200
        for seed in 1...learners {
            let progress = Self.simulate(Self.middling, answers: 400, seed: UInt64(seed))
            for (i, f) in formats.enumerated() {
                sums[i] += Readiness.estimate(progress: progress, pool: Self.synthetic, format: f.1, now: Self.now).passProbability
            }
        }
        for (i, f) in formats.enumerated() {
            let truth = Self.truePass(Self.middling, f.1)
            #expect(abs(sums[i] / Double(learners) - truth) < 0.03, "\(f.0): mean estimate \(sums[i] / Double(learners)), truth \(truth)")
        }
    }

    /// One learner with a few hundred answers is read within 5 points (most of the time: the rest
    /// is the luck of their answers, which no model can see through).
    @Test func aPreparedLearnerIsReadWithinFivePoints() {
        for (name, format) in [("NY", Self.ny), ("OH", Self.oh), ("CA", Self.ca)] {
            let truth = Self.truePass(Self.prepared, format)
            var close = 0, covered = 0
            for seed in 1...100 {
                let e = Readiness.estimate(progress: Self.simulate(Self.prepared, answers: 400, seed: UInt64(seed)), pool: Self.synthetic, format: format, now: Self.now)
                if abs(e.passProbability - truth) <= 0.05 { close += 1 }
                if e.passProbabilityRange.contains(truth) { covered += 1 }
                if seed == 1 { #expect(abs(e.passProbability - truth) <= 0.05, "\(name): \(e.passProbability) vs \(truth)") }
            }
            #expect(close >= 80, "\(name): \(close) of 100 within 0.05")
            #expect(covered >= 45, "\(name): range held the truth \(covered) of 100 times")
        }
    }

    @Test func moreEvidenceNarrowsTheRange() {
        let few = Readiness.estimate(progress: Self.simulate(Self.middling, answers: 40, seed: 5), pool: Self.synthetic, format: Self.ca, now: Self.now)
        let many = Readiness.estimate(progress: Self.simulate(Self.middling, answers: 1000, seed: 5), pool: Self.synthetic, format: Self.ca, now: Self.now)
        for e in [few, many] { #expect(e.passProbabilityRange.contains(e.passProbability)) }
        let width = { (e: ReadinessEstimate) in e.passProbabilityRange.upperBound - e.passProbabilityRange.lowerBound }
        #expect(width(many) < width(few) * 0.7)
        #expect(many.evidence > few.evidence)
    }
}
