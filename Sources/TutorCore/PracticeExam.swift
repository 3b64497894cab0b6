import Foundation

/// A practice test laid out like the state's real one: questions in section order.
public struct PracticeExam: Equatable, Sendable {
    public var questionIDs: [String]
    /// Index into `format.sections` for each question.
    public var sectionOfQuestion: [Int]
}

public enum ExamError: Error, Equatable, CustomStringConvertible {
    case notEnoughQuestions(section: String, needed: Int, available: Int)
    case noFormat(state: String)

    public var description: String {
        switch self {
        case .notEnoughQuestions(let s, let n, let a):
            return "section \(s) needs \(n) questions, the bank has \(a) unused"
        case .noFormat(let s): return "\(s) has no test format"
        }
    }
}

/// How many questions of each topic a test section asks, and how many of those come from the
/// state's own file: the section's questions are dealt out over the topics it admits in
/// proportion to the pool (largest remainder), and each topic's share is split between the state's
/// own questions and universal ones in proportion too. A real test samples the whole handbook, so
/// a practice test does: never 30 right-of-way questions in a row.
///
/// The state's own questions are a floor, not only a proportion: a real test is written from the
/// state's handbook, and a proportional share of a state file of 40 questions among 600 rounds
/// to none (Texas tests 1 and 3 held 0 of 30). See `SectionBlueprint.forTest`.
public struct SectionBlueprint: Equatable, Sendable {
    public struct Quota: Equatable, Sendable {
        public var topic: Topic
        public var stateOwn: Int
        public var universal: Int
        public var total: Int { stateOwn + universal }
    }
    public var quotas: [Quota]
    public var stateOwn: Int { quotas.reduce(0) { $0 + $1.stateOwn } }

    /// The share of a practice test that comes from the state's own file, at least, and never
    /// fewer than `minimumStateQuestions` questions.
    public static let minimumStateShare = 0.15
    public static let minimumStateQuestions = 3

    /// The blueprints of a whole test: the state's floor (`minimumStateShare` of the test, at
    /// least `minimumStateQuestions`) spread over the sections that admit state questions, in
    /// proportion to their size, and never more than a section's state questions can give each of
    /// the four fixed tests without repeating one.
    public static func minimumStateQuestions(_ format: TestFormat) -> Int {
        let questions = format.sections.reduce(0) { $0 + $1.questions }
        return max(minimumStateQuestions, Int((Double(questions) * minimumStateShare).rounded(.up)))
    }

    public static func forTest(_ format: TestFormat, pool: [Question]) -> [SectionBlueprint] {
        let floor = minimumStateQuestions(format)
        let ownAvailable = format.sections.map { section in
            pool.filter { $0.stateCode != nil && section.pool.asksOnTest($0) }.count / ExamBuilder.fixedTests
        }
        var floors = Readiness.apportion(
            floor, weights: format.sections.indices.map { ownAvailable[$0] > 0 ? format.sections[$0].questions : 0 })
        // A section that cannot give its part hands the rest to the others that can.
        var spare = 0
        for i in floors.indices {
            let cap = min(ownAvailable[i], format.sections[i].questions)
            if floors[i] > cap {
                spare += floors[i] - cap
                floors[i] = cap
            }
        }
        for i in floors.indices where spare > 0 {
            let room = min(ownAvailable[i], format.sections[i].questions) - floors[i]
            let add = min(room, spare)
            floors[i] += add
            spare -= add
        }
        return format.sections.indices.map {
            SectionBlueprint(section: format.sections[$0], pool: pool, minimumStateOwn: floors[$0])
        }
    }

    public init(section: TestSection, pool: [Question], minimumStateOwn: Int = 0) {
        let admitted = pool.filter(section.pool.asksOnTest)
        var own = [Topic: Int]()
        var uni = [Topic: Int]()
        for q in admitted {
            if q.stateCode == nil { uni[q.category, default: 0] += 1 } else { own[q.category, default: 0] += 1 }
        }
        let topics = Topic.allCases.filter { own[$0, default: 0] + uni[$0, default: 0] > 0 }
        let weights = topics.map { t in
            section.topicWeights.map { Int((($0[t] ?? 0) * 1000).rounded()) }
                ?? (own[t, default: 0] + uni[t, default: 0]) * 1000
        }
        let perTopic = Readiness.apportion(section.questions, weights: weights)
        var split = topics.indices.map { i -> (own: Int, universal: Int) in
            let t = topics[i]
            let parts = Readiness.apportion(perTopic[i], weights: [own[t, default: 0], uni[t, default: 0]])
            return (parts[0], parts[1])
        }
        let ownTotal = split.reduce(0) { $0 + $1.own }
        if ownTotal < minimumStateOwn {
            // The floor's extra state questions, over the topics in proportion to the state's
            // questions in each; they take the places of universal questions, the same topic's
            // first, so the topics keep their shares where they can.
            let extra = Readiness.apportion(minimumStateOwn - ownTotal, weights: topics.map { own[$0, default: 0] })
            var displaced = 0
            for i in topics.indices {
                split[i].own += extra[i]
                let fromSameTopic = min(extra[i], split[i].universal)
                split[i].universal -= fromSameTopic
                displaced += extra[i] - fromSameTopic
            }
            // The rest from the topics with the most universal questions in this test.
            while displaced > 0,
                let i = split.indices.filter({ split[$0].universal > 0 }).max(by: {
                    split[$0].universal < split[$1].universal
                })
            {
                split[i].universal -= 1
                displaced -= 1
            }
        }
        quotas = topics.indices.compactMap { i in
            guard split[i].own + split[i].universal > 0 else { return nil }
            return Quota(topic: topics[i], stateOwn: split[i].own, universal: split[i].universal)
        }
    }
}

/// Builds practice tests from universal + state questions, by blueprint (see `SectionBlueprint`).
///
/// Tests 1-4 are fixed (like TigerTest's): the same questions for everyone, every time, and no
/// question appears in two of them. Within each (section, topic, origin) bucket questions are
/// ordered by a well-mixed stable hash of (state, id), so ids sharing a prefix do not cluster and
/// adding questions to a bank reshuffles little; test k takes the k-th slice of every bucket. A
/// bucket too small for its quota lends the shortfall to the same topic's other origin, then to
/// the topics with the most unused questions. Each section's questions are then put in a
/// deterministic mixed order, so topics interleave.
public enum ExamBuilder {
    public static let fixedTests = 4

    public static func fixedTest(_ number: Int, state: StateInfo, pool: [Question]) throws -> PracticeExam {
        let format = state.test
        guard !format.sections.isEmpty else { throw ExamError.noFormat(state: state.code) }
        var used = Set<String>()
        var dealt: [Int: [Int: [Question]]] = [:]  // test → section → questions
        let blueprints = SectionBlueprint.forTest(format, pool: pool)
        for s in sectionOrder(format) {
            let section = format.sections[s]
            let blueprint = blueprints[s]
            let candidates = pool.filter(section.pool.asksOnTest)
                .sorted { mixedHash(state.code, $0.id) < mixedHash(state.code, $1.id) }
            for test in 1...fixedTests {
                let picked = try fill(section, blueprint, candidates, used: &used)
                dealt[test, default: [:]][s] = picked
            }
        }
        var random = SeededRandom(seed: mixedHash(state.code, "test-\(number)"))
        return layout(format, dealt[number] ?? [:], random: &random)
    }

    /// A fresh draw: the same blueprint, any questions.
    public static func randomTest(state: StateInfo, pool: [Question], random: inout SeededRandom) throws -> PracticeExam
    {
        let format = state.test
        guard !format.sections.isEmpty else { throw ExamError.noFormat(state: state.code) }
        var used = Set<String>()
        var bySection: [Int: [Question]] = [:]
        let shuffled = pool.shuffled(using: &random)
        let blueprints = SectionBlueprint.forTest(format, pool: pool)
        for s in sectionOrder(format) {
            let section = format.sections[s]
            let blueprint = blueprints[s]
            bySection[s] = try fill(section, blueprint, shuffled.filter(section.pool.asksOnTest), used: &used)
        }
        return layout(format, bySection, random: &random)
    }

    /// Takes each quota's questions from `candidates` (in their order), skipping `used`.
    static func fill(
        _ section: TestSection, _ blueprint: SectionBlueprint, _ candidates: [Question],
        used: inout Set<String>
    ) throws -> [Question] {
        var picked: [Question] = []
        var short = 0
        for quota in blueprint.quotas {
            var got = 0
            for (fromState, want) in [(true, quota.stateOwn), (false, quota.universal)] where want > 0 {
                var taken = 0
                for q in candidates
                where taken < want && q.category == quota.topic && (q.stateCode != nil) == fromState
                    && !used.contains(q.id)
                {
                    picked.append(q)
                    used.insert(q.id)
                    taken += 1
                }
                got += taken
            }
            // The same topic's other origin first, so the topic keeps its share.
            for q in candidates where got < quota.total && q.category == quota.topic && !used.contains(q.id) {
                picked.append(q)
                used.insert(q.id)
                got += 1
            }
            short += quota.total - got
        }
        // Anything still missing comes from the topics with the most unused questions.
        while short > 0 {
            var left: [Topic: Int] = [:]
            for q in candidates where !used.contains(q.id) { left[q.category, default: 0] += 1 }
            guard let topic = left.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key,
                let q = candidates.first(where: { $0.category == topic && !used.contains($0.id) })
            else {
                throw ExamError.notEnoughQuestions(
                    section: section.name, needed: section.questions,
                    available: candidates.count)
            }
            picked.append(q)
            used.insert(q.id)
            short -= 1
        }
        topUpStateOwn(&picked, to: blueprint.stateOwn, from: candidates, used: &used)
        return picked
    }

    /// A topic's bucket of state questions can run dry before the fourth test (a state file has
    /// one or two questions in most topics): the state's floor is then met with its questions of
    /// other topics, each in place of a universal question, of the same topic where it can.
    static func topUpStateOwn(
        _ picked: inout [Question], to floor: Int, from candidates: [Question], used: inout Set<String>
    ) {
        var missing = floor - picked.filter { $0.stateCode != nil }.count
        while missing > 0, let own = candidates.first(where: { $0.stateCode != nil && !used.contains($0.id) }) {
            let universal = picked.indices.filter { picked[$0].stateCode == nil }
            guard !universal.isEmpty else { return }
            var count: [Topic: Int] = [:]
            for i in universal { count[picked[i].category, default: 0] += 1 }
            let most =
                universal.max { count[picked[$0].category, default: 0] < count[picked[$1].category, default: 0] }
                ?? universal[0]
            let i = universal.first { picked[$0].category == own.category } ?? most
            used.remove(picked[i].id)
            picked[i] = own
            used.insert(own.id)
            missing -= 1
        }
    }

    static func layout(_ format: TestFormat, _ bySection: [Int: [Question]], random: inout SeededRandom) -> PracticeExam
    {
        var ids: [String] = []
        var sections: [Int] = []
        for s in format.sections.indices {
            let list = interleave(bySection[s] ?? [], random: &random)
            ids += list.map(\.id)
            sections += Array(repeating: s, count: list.count)
        }
        return PracticeExam(questionIDs: ids, sectionOfQuestion: sections)
    }

    /// A shuffle that also keeps two questions of one topic from sitting side by side where it can:
    /// each next question is drawn from the topics with the most questions left, never the topic
    /// just asked unless it is the only one left.
    static func interleave(_ questions: [Question], random: inout SeededRandom) -> [Question] {
        var byTopic = Dictionary(grouping: questions.shuffled(using: &random), by: \.category)
        var out: [Question] = []
        var last: Topic?
        while !byTopic.isEmpty {
            let left = byTopic.values.reduce(0) { $0 + $1.count }
            // A topic holding more than half of what is left must go now, or it ends in a run.
            if let (big, list) = byTopic.first(where: { $0.value.count * 2 > left + 1 }), big != last {
                out.append(list.last!)
                byTopic[big]!.removeLast()
                if byTopic[big]!.isEmpty { byTopic[big] = nil }
                last = big
                continue
            }
            let choices = byTopic.keys.filter { $0 != last }
            let pool = choices.isEmpty ? Array(byTopic.keys) : choices
            // Weighted by what is left, so big topics spread over the whole test.
            let total = pool.reduce(0) { $0 + byTopic[$1]!.count }
            var r = Int(random.next() % UInt64(total))
            var topic = pool.sorted()[0]
            for t in pool.sorted() {
                let n = byTopic[t]!.count
                if r < n {
                    topic = t
                    break
                }
                r -= n
            }
            out.append(byTopic[topic]!.removeLast())
            if byTopic[topic]!.isEmpty { byTopic[topic] = nil }
            last = topic
        }
        return out
    }

    static func sectionOrder(_ format: TestFormat) -> [Int] {
        format.sections.indices.sorted {
            restrictiveness(format.sections[$0].pool) < restrictiveness(format.sections[$1].pool)
        }
    }

    static func restrictiveness(_ p: SectionPool) -> Int {
        switch p {
        case .signs: return 0
        case .rules: return 1
        case .all: return 2
        }
    }

    /// FNV-1a: stable across runs and platforms (Swift's Hasher is seeded per process).
    public static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    /// FNV-1a finished with SplitMix64's mixer: FNV alone keeps ids with a shared prefix close
    /// together when sorted (`u-row-001`, `u-row-002`, …), which is how tests clumped by topic.
    public static func mixedHash(_ state: String, _ id: String) -> UInt64 {
        var z = stableHash(state + "/" + id)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How one section of a practice test went, and why it passed or not.
public struct SectionOutcome: Codable, Equatable, Sendable {
    public var name: String
    public var correct: Int
    public var total: Int
    /// The section's own minimum, if it has one.
    public var needed: Int?
    public var separate: Bool
    public var passed: Bool
}

public struct ExamOutcome: Codable, Equatable, Sendable {
    public var correct: Int
    public var total: Int
    public var needed: Int
    public var sections: [SectionOutcome]
    public var passed: Bool
}

/// Scores a practice test by the state's real rules: the overall mark over the counted sections,
/// every section's own minimum (OH 15/20 each, NY 2 of 4 signs, VA 10/10 signs), and separate
/// tests (NC's 12 signs) that must be passed on their own.
public enum ExamScoring {
    public static func score(format: TestFormat, sectionOfQuestion: [Int], correct: [Bool]) -> ExamOutcome {
        var sections = format.sections.map {
            SectionOutcome(
                name: $0.name, correct: 0, total: $0.questions, needed: $0.passCorrect, separate: $0.separate,
                passed: true)
        }
        for (i, right) in correct.enumerated() where right && sectionOfQuestion.indices.contains(i) {
            let s = sectionOfQuestion[i]
            if sections.indices.contains(s) { sections[s].correct += 1 }
        }
        for i in sections.indices {
            sections[i].passed = sections[i].correct >= (sections[i].needed ?? 0)
        }
        let counted = sections.filter { !$0.separate }
        let total = counted.reduce(0) { $0 + $1.total }
        let right = counted.reduce(0) { $0 + $1.correct }
        let needed = format.passCorrect ?? Int((Double(total) * 0.8).rounded(.up))
        // A separate test with its own minimum counts only through that minimum.
        let passed = right >= needed && sections.allSatisfy(\.passed)
        return ExamOutcome(correct: right, total: total, needed: needed, sections: sections, passed: passed)
    }
}
