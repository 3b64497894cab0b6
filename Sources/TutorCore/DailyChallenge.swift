import Foundation

/// The daily challenge: each day every learner of a state gets the same five questions, one try,
/// then how they did against the state's other learners that day (anonymous: no names anywhere).
///
/// The questions come from one fixed order of the state's multiple-choice pool, dealt topic by
/// topic in proportion to the state's test blueprint (the practice tests' quotas), shuffled once
/// per state; day `d` takes the five at `5·d` (wrapping). So a day's five are the same for
/// everyone, follow the blueprint's mix over any stretch of days, and no question comes back
/// before the pool has gone round: a 600-question pool repeats after 120 days (`repeatFreeDays`
/// holds for any pool of 150 or more).
public enum DailyChallenge {
    public static let length = 5
    public static let repeatFreeDays = 30
    /// "You beat 72% of Texas learners today" once this many have played; before, "one of the first".
    public static let percentileFrom = 20

    /// The state's day (its main time zone) that `instant` falls on.
    public static func day(for state: StateInfo, at instant: Date) -> LocalDay {
        LocalDay(instant, in: TimeZone(identifier: state.primaryTimeZone) ?? League.timeZone)
    }

    /// The dealing order of `state`'s pool (see the type's comment).
    public static func order(pool: [Question], state: StateInfo) -> [String] {
        let candidates = pool.filter { $0.kind != .fillIn }
        var weights: [Topic: Int] = [:]
        for section in state.test.sections {
            for quota in SectionBlueprint(section: section, pool: candidates).quotas { weights[quota.topic, default: 0] += quota.total }
        }
        var random = SeededRandom(seed: ExamBuilder.mixedHash(state.code, "daily-challenge"))
        var queues: [Topic: [String]] = [:]
        for q in candidates { queues[q.category, default: []].append(q.id) }
        // In topic order, never the dictionary's (which differs from one run to the next).
        for t in Topic.allCases where queues[t] != nil { queues[t]!.shuffle(using: &random) }
        // Smooth weighted round-robin: each turn every topic gains its weight, the richest deals one.
        let topics = Topic.allCases.filter { queues[$0] != nil }
        var credit = [Topic: Int]()
        var order: [String] = []
        order.reserveCapacity(candidates.count)
        while order.count < candidates.count {
            let live = topics.filter { !(queues[$0]?.isEmpty ?? true) }
            let total = live.reduce(0) { $0 + max(1, weights[$1] ?? 1) }
            for t in live { credit[t, default: 0] += max(1, weights[t] ?? 1) }
            guard let pick = live.max(by: { credit[$0]! < credit[$1]! }) else { break }
            credit[pick]! -= total
            order.append(queues[pick]!.removeFirst())
        }
        return order
    }

    /// Day `day`'s questions for `state`.
    public static func questions(order: [String], day: LocalDay) -> [String] {
        guard !order.isEmpty else { return [] }
        let n = min(length, order.count)
        let start = ((day.ordinal * length) % order.count + order.count) % order.count
        return (0..<n).map { order[(start + $0) % order.count] }
    }
}

/// What the edge read of today's results in the learner's state: how many others scored 0...5.
public struct DailyScores: Equatable, Sendable {
    public var counts: [Int]
    public init(counts: [Int]) { self.counts = counts }
    public var players: Int { counts.reduce(0, +) }
    /// Share of the others who scored less than `score`, ties counted half.
    public func beatShare(_ score: Int) -> Double {
        guard players > 0 else { return 0 }
        let below = counts.prefix(max(0, min(score, counts.count))).reduce(0, +)
        let tied = counts.indices.contains(score) ? counts[score] : 0
        return (Double(below) + Double(tied) / 2) / Double(players)
    }
}

/// After the daily challenge: the score, how it compares today (anonymously), the daily streak.
public struct DailyResultView: Equatable, Sendable {
    public var score: Int
    public var total: Int
    public var stateName: String
    /// "You beat 72% of Texas learners today" (nil: fewer than `percentileFrom` have played).
    public var beatPercent: Int?
    public var streak: Int
    public var reward: SessionReward? = nil
}

extension Reduction {
    var dailyDay: LocalDay? { stateInfo.map { DailyChallenge.day(for: $0, at: ctx.now) } }

    /// "📅 Daily 5": today's five for the learner's state, once.
    mutating func startDaily() {
        guard let info = stateInfo, let day = dailyDay else { return showStatePicker() }
        if learner.dailyDay == day { return notice(.dailyDone) }
        let ids = DailyChallenge.questions(order: DailyChallenge.order(pool: banks.pool(for: info.code), state: info), day: day)
        guard ids.count == DailyChallenge.length else { send(.testUnavailable); return showHome() }
        beginRun(.daily(day.ordinal), questionIDs: ids)
    }

    mutating func finishDaily(_ quiz: QuizRun, dayOrdinal: Int) {
        state.session.quiz = nil
        state.session.screen = .results
        guard let info = stateInfo else { return showStatePicker() }
        let day = LocalDay(ordinal: dayOrdinal)
        let score = quiz.answers.filter(\.correct).count
        if learner.dailyDay != day {
            state.learner.dailyStreak = learner.dailyDay == day.adding(days: -1) ? learner.dailyStreak + 1 : 1
            state.learner.dailyDay = day
            effects.append(.recordDailyResult(stateCode: info.code, day: day, score: score))
        }
        let others = ctx.dailyScores
        let beat = others.flatMap { $0.players + 1 >= DailyChallenge.percentileFrom ? Int(($0.beatShare(score) * 100).rounded()) : nil }
        send(.dailyResult(DailyResultView(score: score, total: quiz.questionIDs.count, stateName: info.name, beatPercent: beat,
                                          streak: learner.dailyStreak, reward: reward(since: quiz.xpAtStart))),
             buttons: [[Button(.challengeFriend, .menu(.challenge))], [Button(.home, .menu(.home))]])
        restoreParkedTest()
    }
}
