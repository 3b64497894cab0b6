import Foundation
import LearnerSimulation
import Testing

@testable import TutorCore

@Suite struct ReadinessTests {
    // The real formats from states.json.
    static let ny = TestFormat(
        questions: 20, passCorrect: 14,
        sections: [
            TestSection(name: "Road signs", pool: .signs, questions: 4, passCorrect: 2),
            TestSection(name: "Rules of the road", pool: .rules, questions: 16),
        ])
    static let oh = TestFormat(
        questions: 40, passCorrect: 30,
        sections: [
            TestSection(name: "Road signs", pool: .signs, questions: 20, passCorrect: 15),
            TestSection(name: "Traffic laws", pool: .rules, questions: 20, passCorrect: 15),
        ])
    static let va = TestFormat(
        questions: 35, passCorrect: 30,
        sections: [
            TestSection(name: "Road signs", pool: .signs, questions: 10, passCorrect: 10),
            TestSection(name: "General knowledge", pool: .rules, questions: 25, passCorrect: 20),
        ])
    static let nc = TestFormat(
        questions: 25, passCorrect: 20,
        sections: [
            TestSection(name: "Knowledge test", pool: .all, questions: 25),
            TestSection(name: "Road-sign test", pool: .signs, questions: 12, passCorrect: 9, separate: true),
        ])
    static let ca = TestFormat(
        questions: 46, passCorrect: 38, sections: [TestSection(name: "Knowledge test", pool: .all, questions: 46)])
    /// MI: count unknown; the loader puts the 25-question stand-in into the section.
    static let mi = TestFormat(
        questions: nil, passCorrect: nil,
        sections: [
            TestSection(name: "Knowledge test", pool: .all, questions: TestFormat.unknownCountStandIn)
        ])
    static func plain(_ n: Int, _ pass: Int) -> TestFormat {
        TestFormat(
            questions: n, passCorrect: pass, sections: [TestSection(name: "Knowledge test", pool: .all, questions: n)])
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
        let p = Readiness.exactPassProbability(
            format: Self.plain(20, 14), sectionSuccess: [[Double](repeating: 0.7, count: 20)])
        var tail = 0.0
        for k in 14...20 { tail += Self.choose(20, k) * pow(0.7, Double(k)) * pow(0.3, Double(20 - k)) }
        #expect(abs(p - tail) < 1e-12)
        #expect(abs(tail - 0.608009812) < 1e-9)  // the textbook figure
        // MI: no pass mark given, so 80% of the 25 stand-in questions, as ExamScoring does.
        let mi = Readiness.exactPassProbability(format: Self.mi, sectionSuccess: [[Double](repeating: 0.75, count: 25)])
        #expect(abs(mi - Self.atLeast(25, 20, 0.75)) < 1e-12)
    }

    /// Every outcome of a small test with all the rules (section minimum, plain section, separate
    /// test), scored by ExamScoring: the DP must agree with brute force to the last digit.
    @Test func agreesWithScoringEveryOutcome() {
        let format = TestFormat(
            questions: 7, passCorrect: 5,
            sections: [
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
            guard ExamScoring.score(format: format, sectionOfQuestion: sectionOf, correct: right).passed else {
                continue
            }
            brute += flat.indices.reduce(1.0) { $0 * (right[$1] ? flat[$1] : 1 - flat[$1]) }
        }
        #expect(brute > 0.2 && brute < 0.8)
        #expect(abs(Readiness.exactPassProbability(format: format, sectionSuccess: success) - brute) < 1e-12)
    }

    /// NY: 14 of 20 overall AND at least 2 of the 4 signs.
    @Test func newYorkSignMinimumCountsWhenSignsAreWeak() {
        let signs = [Double](repeating: 0.3, count: 4)
        let rules = [Double](repeating: 0.9, count: 16)
        let ny = Readiness.exactPassProbability(format: Self.ny, sectionSuccess: [signs, rules])
        let hand = (2...4).reduce(0.0) { $0 + Self.pmf(4, $1, 0.3) * Self.atLeast(16, 14 - $1, 0.9) }
        #expect(abs(ny - hand) < 1e-12)
        // The same questions without the sign rule pass more often.
        let withoutRule = Readiness.exactPassProbability(format: Self.plain(20, 14), sectionSuccess: [signs + rules])
        #expect(withoutRule - ny > 0.1)
        // Strong signs: the rule hardly matters.
        let strong = [[Double](repeating: 0.95, count: 4), rules]
        #expect(
            abs(
                Readiness.exactPassProbability(format: Self.ny, sectionSuccess: strong)
                    - Readiness.exactPassProbability(
                        format: Self.plain(20, 14), sectionSuccess: [strong.flatMap { $0 }])) < 0.002)
    }

    /// OH: 15 of 20 in each part (so 30 of 40 overall follows).
    @Test func ohioNeedsEachHalf() {
        let signs = [Double](repeating: 0.95, count: 20)
        let rules = [Double](repeating: 0.7, count: 20)
        let oh = Readiness.exactPassProbability(format: Self.oh, sectionSuccess: [signs, rules])
        #expect(abs(oh - Self.atLeast(20, 15, 0.95) * Self.atLeast(20, 15, 0.7)) < 1e-12)
        let pooled = Readiness.exactPassProbability(format: Self.plain(40, 30), sectionSuccess: [signs + rules])
        #expect(pooled - oh > 0.2)  // great signs cannot make up for weak rules
    }

    /// VA: all 10 signs right, and 20 of 25 rules.
    @Test func virginiaNeedsEverySign() {
        let va = Readiness.exactPassProbability(
            format: Self.va,
            sectionSuccess: [[Double](repeating: 0.9, count: 10), [Double](repeating: 0.85, count: 25)])
        #expect(abs(va - pow(0.9, 10) * Self.atLeast(25, 20, 0.85)) < 1e-12)
    }

    /// NC: 20 of 25, and separately 9 of 12 signs; the separate test is not in the 25.
    @Test func northCarolinaSignTestMultipliesIn() {
        let knowledge = [Double](repeating: 0.8, count: 25)
        let signs = [Double](repeating: 0.7, count: 12)
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
        let pool = Self.pool(sizes: [.roadSigns: 10, .rightOfWay: 30])
        let truth: [Topic: Double] = [.roadSigns: 0.5, .rightOfWay: 0.9]
        let success = Readiness.sectionSuccess(format: Self.ny, pool: pool) { truth[$0.category]! }
        #expect(success[0].count == 4 && success[0].allSatisfy { abs($0 - 0.5) < 1e-9 })
        #expect(success[1].count == 16 && success[1].allSatisfy { abs($0 - 0.9) < 1e-9 })
        let all = Readiness.sectionSuccess(format: Self.plain(20, 14), pool: pool) { truth[$0.category]! }[0]
        #expect(all.filter { abs($0 - 0.5) < 1e-9 }.count == 5 && all.filter { abs($0 - 0.9) < 1e-9 }.count == 15)
    }

    // MARK: - Estimate

    static let now = Date(timeIntervalSince1970: 1_795_000_000)
    /// A pool shaped like a real one: every topic, a state's own questions, four options each.
    static let sizes: [Topic: Int] = Dictionary(
        uniqueKeysWithValues: Topic.allCases.map { ($0, $0 == .roadSigns ? 60 : ($0 == .stateSpecific ? 30 : 16)) })
    static let synthetic = pool(sizes: sizes)

    static func pool(sizes: [Topic: Int]) -> [Question] {
        Topic.allCases.flatMap { topic in
            (0..<(sizes[topic] ?? 0)).map { i in
                Question(
                    id: "\(topic.rawValue)-\(i)", category: topic, difficulty: Difficulty.allCases[i % 3],
                    questionText: "Q", answers: ["A", "B", "C", "D"], correctAnswerIndex: 0, explanation: "E",
                    source: "S",
                    stateCode: topic == .stateSpecific ? "TX" : nil)
            }
        }
    }

    static func question(_ id: String) -> Question { synthetic.first { $0.id == id }! }

    /// Records an answer the way the reducer does: the trace's prior is what the learner's first answers say.
    static func answer(_ progress: inout [String: QuestionStats], _ id: String, _ right: Bool, at: Date) {
        let q = question(id)
        let unstudied =
            Knowledge.counts(progress[id], at: at)
            ? Readiness.FirstAnswers(progress: progress, pool: synthetic).unstudiedKnown(q) : nil
        progress[id, default: QuestionStats(lastAnsweredAt: at)].record(
            correct: right, at: at, question: q, unstudied: unstudied)
    }

    @Test func noAnswersGiveTheNewcomerPriorAndShowNothing() {
        let e = Readiness.estimate(progress: [:], pool: Self.synthetic, format: Self.ny, now: Self.now)
        #expect(!e.isShown && e.answered == 0 && e.seen == 0 && e.poolSize == Self.synthetic.count)
        #expect(e.topicsNotTried.count == Topic.allCases.count)
        // A newcomer answers an easy question right about 62% of the time, a hard one 40%.
        let mean = (0.62 + 0.50 + 0.40) / 3
        #expect(abs(e.accuracyByTopic[.parking]! - mean) < 0.02)
        #expect(e.passProbability < 0.3)
    }

    /// The first build said "about 100%" after 42 answers with 40 of 347 seen: questions never
    /// answered count at the first-attempt prior, not at the learner's average.
    @Test func fortyRightAnswersDoNotMakeAPass() {
        var progress: [String: QuestionStats] = [:]
        let universal = Self.synthetic.filter { $0.stateCode == nil }
        for (i, q) in universal.enumerated() where i % 7 == 0 && progress.count < 40 {
            Self.answer(&progress, q.id, true, at: Self.now - 3600)
        }
        Self.answer(&progress, "stateSpecific-0", false, at: Self.now - 3600)
        Self.answer(&progress, "stateSpecific-1", false, at: Self.now - 3600)
        let e = Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.ca, now: Self.now)
        #expect(e.seen == 42)
        // 40 of 42 first answers right is a strong learner (three learner models agree since the
        // shrinkage toward a newcomer was cut from 60 to 12 answers), but 42 answers are no proof.
        #expect(e.passProbabilityRange.lowerBound < 0.75, "\(e.passProbabilityRange)")
        #expect(e.passProbability < 0.9, "\(e.passProbability)")
        // Drilled topics read high; a topic never answered stays near the newcomer level.
        let untouched = Self.synthetic.filter { $0.category == .parking && progress[$0.id] == nil }
        #expect(!untouched.isEmpty)
    }

    /// The first build said "about 92%" right after the learner failed Practice test 1.
    @Test func failingAPracticeTestReadsAsNotReady() {
        var progress: [String: QuestionStats] = [:]
        let test = Self.synthetic.enumerated().filter { $0.offset % 6 == 0 }.prefix(30).map(\.element.id)
        for (i, id) in test.enumerated() { Self.answer(&progress, id, i % 3 == 0, at: Self.now - 3600 + Double(i)) }  // 10 of 30
        let e = Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.plain(30, 21), now: Self.now)
        #expect(e.passProbabilityRange.upperBound < 0.2, "\(e.passProbabilityRange)")
    }

    @Test func drillingOneTopicSaysLittleAboutAnother() {
        var progress: [String: QuestionStats] = [:]
        for day in 0..<10 {
            for i in 0..<60 {
                Self.answer(&progress, "roadSigns-\(i)", true, at: Self.now - Double(10 - day) * 86_400 + Double(i))
            }
        }
        let e = Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.ca, now: Self.now)
        #expect(e.accuracyByTopic[.roadSigns]! > 0.9)
        #expect(e.accuracyByTopic[.rightOfWay]! < 0.9, "a topic never tried: \(e.accuracyByTopic[.rightOfWay]!)")
        #expect(e.accuracyByTopic[.roadSigns]! - e.accuracyByTopic[.rightOfWay]! > 0.05)
        #expect(!e.isShown, "one topic is not evidence across the test")
    }

    /// Re-answering misses minutes after their answers were shown is recognition, not knowledge.
    @Test func reAnsweringMissesAtOnceChangesNothing() {
        var progress: [String: QuestionStats] = [:]
        let ids = Self.synthetic.enumerated().filter { $0.offset % 3 == 0 }.map(\.element.id)
        for (i, id) in ids.enumerated() { Self.answer(&progress, id, i % 2 == 0, at: Self.now - 7200) }
        let before = Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.ny, now: Self.now)
        var drilled = progress
        for (i, id) in ids.enumerated() where i % 2 == 1 {
            Self.answer(&drilled, id, true, at: Self.now - 7000)
            Self.answer(&drilled, id, true, at: Self.now - 6800)
        }
        let after = Readiness.estimate(progress: drilled, pool: Self.synthetic, format: Self.ny, now: Self.now)
        #expect(
            abs(after.passProbability - before.passProbability) < 0.005,
            "\(before.passProbability) → \(after.passProbability)")
        // The same right answers a day later do count.
        var spaced = progress
        for (i, id) in ids.enumerated() where i % 2 == 1 {
            Self.answer(&spaced, id, true, at: Self.now - 7200 + 86_400)
        }
        let later = Readiness.estimate(progress: spaced, pool: Self.synthetic, format: Self.ny, now: Self.now + 86_400)
        let mean = { (e: ReadinessEstimate) in e.accuracyByTopic.values.reduce(0, +) / Double(e.accuracyByTopic.count) }
        #expect(abs(mean(after) - mean(before)) < 0.002)
        #expect(mean(later) > mean(before) + 0.02, "\(mean(before)) → \(mean(later))")
    }

    @Test func knowledgeFades() {
        // A learner who didn't know the answers at first and learned them (a miss, then right a day later).
        func learned(daysAgo: Double) -> [String: QuestionStats] {
            var progress: [String: QuestionStats] = [:]
            for (i, q) in Self.synthetic.enumerated() {
                Self.answer(&progress, q.id, false, at: Self.now - (daysAgo + 1) * 86_400 + Double(i))
                Self.answer(&progress, q.id, true, at: Self.now - daysAgo * 86_400 + Double(i))
            }
            return progress
        }
        let f = Readiness.estimate(
            progress: learned(daysAgo: 0.1), pool: Self.synthetic, format: Self.plain(30, 21), now: Self.now)
        let o = Readiness.estimate(
            progress: learned(daysAgo: 60), pool: Self.synthetic, format: Self.plain(30, 21), now: Self.now)
        #expect(
            f.passProbability > o.passProbability + 0.3, "fresh \(f.passProbability), 60 days old \(o.passProbability)")
        #expect(o.passProbability < 0.1)
        // One lucky answer is weak evidence: on four options a guess is right a quarter of the time.
        var one = QuestionStats(lastAnsweredAt: Self.now)
        one.record(correct: true, at: Self.now, question: Self.question("parking-2"))
        #expect(one.knowledge! < 0.8 && one.knowledge! > 0.5)
    }

    /// A learner who only guesses is told so: shown, and under 10%.
    @Test func aGuesserIsNotFlattered() {
        var progress: [String: QuestionStats] = [:]
        var random = SeededRandom(seed: 4)
        for (i, q) in Self.synthetic.enumerated() {
            Self.answer(&progress, q.id, random.unit() < 0.25, at: Self.now - Double(i) * 60)
        }
        let e = Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.ca, now: Self.now)
        #expect(e.isShown)
        #expect(e.passProbabilityRange.upperBound < 0.1, "\(e.passProbabilityRange)")
    }

    @Test func answersOutsideThePoolAreIgnored() {
        var progress: [String: QuestionStats] = [:]
        for q in Self.synthetic.prefix(100) { Self.answer(&progress, q.id, true, at: Self.now - 86_400) }
        var withStrangers = progress
        for i in 0..<50 {
            withStrangers["ny-\(i)"] = QuestionStats(
                seen: 3, correct: 0, lastCorrect: false, lastAnsweredAt: Self.now, missed: true)
        }
        #expect(
            Readiness.estimate(progress: withStrangers, pool: Self.synthetic, format: Self.oh, now: Self.now)
                == Readiness.estimate(progress: progress, pool: Self.synthetic, format: Self.oh, now: Self.now))
    }

    /// The honest-number check, small enough for the suite (the full table is `bench --calibration`):
    /// simulated learners of every study pattern, whose hidden knowledge follows another model.
    @Test func simulatedLearnersAreCalibrated() {
        let state = StateInfo(
            code: "TX", name: "Texas", timeZones: ["America/Chicago"], minPermitAge: 15, handbook: "H",
            launch: true, confidence: .high, note: nil, test: Self.plain(30, 21))
        let all = Calibration.run(
            state: state, pool: Self.synthetic, learnersPerPattern: 3, days: 14, truthTests: 0, seed: 7)
        // Every hidden-knowledge generator on its own: a number tuned on one model must hold on the others.
        // Looser than the bench's floors (3 learners a pattern on a made-up pool; the shipped banks'
        // figures are in the README): this guards against a change that breaks one generator.
        // The two gaming patterns of issue #40 (a crammed day, six retakes a day) are read on their
        // own: the estimator's error there is what the issue is about, and the aggregate bars were
        // set before them.
        let gaming: Set<Calibration.Pattern> = [.cramOneDay, .retakeSixADay]
        for g in Generator.allCases {
            let report = all.only(g)
            let usual = Calibration.Report(observations: report.observations.filter { !gaming.contains($0.pattern) })
            #expect(report.shown.count > 100)
            // Read off the one figure the screen shows ("about 45%", to the nearest 5): at the ends
            // it rounds to 0 or 100, which the deciles count against it (it was the range's middle).
            // 0.07 → 0.075 when old tests began to fade with the knowledge they measured (#40):
            // itemDifficulty, whose learners the estimator already reads low, reads a little lower
            // (0.068 → 0.071 here; the bench: 0.067 → 0.071) while crammers' numbers now come down.
            #expect(usual.calibrationError < 0.075, "\(g): decile error \(usual.calibrationError)")
            #expect(usual.meanAbsoluteError < 0.11, "\(g): mean abs error \(usual.meanAbsoluteError)")
            #expect(usual.coverage > 0.75, "\(g): truth in range \(usual.coverage)")
            #expect(report.readyBelow(0.85) == 0, "\(g): Ready shown below a true 85%")
            // The recognition generator's learners who memorise recognise an answer for about a
            // day, which a right answer the next day cannot tell from recall: its crammers
            // (`cramming`, eight quizzes a day) read +12.6 points here (the estimator before #40: +13.3).
            let flattery = g == .recognition ? 0.13 : 0.12
            for p in Calibration.Pattern.allCases {
                if let bias = report.bias(p) { #expect(bias < flattery, "\(g) × \(p): overestimated by \(bias)") }
            }
            #expect((report.maxPredicted(.longestOption) ?? 0) <= 0.10)
        }
    }

    // MARK: - Ready to test

    static func testResult(_ n: Int, id: Int, correct: Int, state: String = "TX") -> QuizResult {
        let exam = ExamScoring.score(
            format: plain(30, 21), sectionOfQuestion: Array(repeating: 0, count: 30),
            correct: (0..<30).map { $0 < correct })
        return QuizResult(
            quizID: id, mode: .practiceTest(number: n), stateCode: state, correct: correct, total: 30, passPercent: 70,
            startedAt: now, finishedAt: now, byTopic: [], missedIDs: [], exam: exam)
    }

}
