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
    /// "You beat 72% of Texas learners today" once this many have played; before, "fewer than 20 have played so far".
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
            for quota in SectionBlueprint(section: section, pool: candidates).quotas {
                weights[quota.topic, default: 0] += quota.total
            }
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

    /// The day's five as first dealt (`stored`), those still in the state's pool; topped up from
    /// today's deal with the banks as they are now (a question a reload took out is replaced).
    public static func keeping(_ stored: [String], topUp dealt: [String], pool: Set<String>) -> [String] {
        var ids = stored.filter { pool.contains($0) }
        for id in dealt where ids.count < length && !ids.contains(id) { ids.append(id) }
        return Array(ids.prefix(length))
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
    /// The learner's friends who played that day (those who hide from friends left out): shown
    /// by name among friends at once, however few have played in the state.
    public var friends: [FriendDailyScore] = []
    public init(counts: [Int], friends: [FriendDailyScore] = []) {
        self.counts = counts
        self.friends = friends
    }
    public var players: Int { counts.reduce(0, +) }
    /// Share of the others who scored less than `score`, ties counted half.
    public func beatShare(_ score: Int) -> Double {
        guard players > 0 else { return 0 }
        let below = counts.prefix(max(0, min(score, counts.count))).reduce(0, +)
        let tied = counts.indices.contains(score) ? counts[score] : 0
        return (Double(below) + Double(tied) / 2) / Double(players)
    }
}

public struct FriendDailyScore: Equatable, Sendable {
    public var name: String
    public var score: Int
    public init(name: String, score: Int) {
        self.name = name
        self.score = score
    }
}

/// The day's Daily 5 a learner played and their score (kept in the session to show again).
public struct DailyPlayed: Codable, Equatable, Sendable {
    public var day: LocalDay
    public var score: Int
    public var total: Int
    /// Questions answered (fewer than `total` when the run was left for another quiz).
    public var answered: Int? = nil
    /// The state it was dealt for (the learner may have switched since; optional: older sessions).
    public var stateCode: String? = nil
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
    /// Answered of `total` (fewer when the run was left for another quiz).
    public var answered: Int? = nil
    /// Friends who played the same five, best first.
    public var friends: [FriendDailyScore] = []
}

extension Reduction {
    var dailyDay: LocalDay? { stateInfo.map { DailyChallenge.day(for: $0, at: ctx.now) } }

    /// Today's five are open (answered in part or in full, results not yet seen).
    var openDaily: QuizRun? {
        guard let quiz = state.session.quiz, case .daily(let day) = quiz.mode, day == dailyDay?.ordinal else {
            return nil
        }
        return quiz
    }

    /// "📅 Daily 5": today's five for the learner's state, one try. Tapped again mid-play it goes
    /// back where the learner was; after, it shows today's result again (the comparison grows as
    /// the state plays).
    mutating func startDaily() {
        guard let info = stateInfo, let day = dailyDay else { return showStatePicker() }
        if openDaily != nil {
            send(.notice(.dailyResumed))
            return resume()
        }
        if learner.dailyDay == day {
            guard let played = state.session.dailyPlayed, played.day == day else { return notice(.dailyDone) }
            state.session.screen = .results
            return sendDailyResult(played, state: played.stateCode.flatMap(banks.state) ?? info, reward: nil)
        }
        closeAbandonedDaily(saying: false)
        let dealt = DailyChallenge.questions(
            order: DailyChallenge.order(pool: banks.pool(for: info.code), state: info), day: day)
        let stored = ctx.dailySet(state: info.code, day: day)
        let ids = DailyChallenge.keeping(stored ?? [], topUp: dealt, pool: banks.poolIDs(for: info.code))
        guard ids.count == DailyChallenge.length else {
            send(.testUnavailable)
            return showHome()
        }
        // The first deal of the day is kept: after a bank reload later that day, everyone still
        // gets the same five, and "you beat 72%" compares the same questions.
        if stored?.isEmpty ?? true { effects.append(.recordDailySet(stateCode: info.code, day: day, questionIDs: ids)) }
        send(.dailyIntro(stateName: info.name))
        beginRun(.daily(day.ordinal), questionIDs: ids)
    }

    /// The first answer uses up the day's one try (and counts for the Daily 5 streak): leaving
    /// and coming back resumes, it never deals the five again.
    mutating func markDailyTried(_ quiz: QuizRun) {
        guard case .daily(let ordinal) = quiz.mode, quiz.answers.count == 1 else { return }
        let day = LocalDay(ordinal: ordinal)
        guard learner.dailyDay != day else { return }
        state.learner.dailyStreak = learner.dailyDay == day.adding(days: -1) ? learner.dailyStreak + 1 : 1
        state.learner.dailyDay = day
    }

    /// A Daily 5 left unfinished for another quiz (or a new day) is scored as it stands: the try
    /// was used at its first answer, and the state's tally should count it. `saying`: tell the
    /// learner ("ended at 2 of 5 answered"), when it is another quiz that ends it.
    mutating func closeAbandonedDaily(saying: Bool = true) {
        guard let quiz = state.session.quiz, case .daily(let ordinal) = quiz.mode else { return }
        state.session.quiz = nil
        guard !quiz.answers.isEmpty, let code = learner.stateCode else { return }
        let score = quiz.answers.filter(\.correct).count
        effects.append(.recordDailyResult(stateCode: code, day: LocalDay(ordinal: ordinal), score: score))
        state.session.dailyPlayed = DailyPlayed(
            day: LocalDay(ordinal: ordinal), score: score, total: quiz.questionIDs.count,
            answered: quiz.answers.count, stateCode: code)
        if saying { send(.dailyClosed(answered: quiz.answers.count, total: quiz.questionIDs.count)) }
    }

    mutating func finishDaily(_ quiz: QuizRun, dayOrdinal: Int) {
        state.session.quiz = nil
        state.session.screen = .results
        guard let info = stateInfo else { return showStatePicker() }
        let day = LocalDay(ordinal: dayOrdinal)
        let score = quiz.answers.filter(\.correct).count
        let played = DailyPlayed(
            day: day, score: score, total: quiz.questionIDs.count, answered: quiz.answers.count, stateCode: info.code)
        if !quiz.answers.isEmpty {
            effects.append(.recordDailyResult(stateCode: info.code, day: day, score: score))
            state.session.dailyPlayed = played
        }
        sendDailyResult(played, state: info, reward: reward(since: quiz.xpAtStart))
        restoreParkedTest()
    }

    private mutating func sendDailyResult(_ played: DailyPlayed, state info: StateInfo, reward: SessionReward?) {
        let others = ctx.dailyScores(state: info.code, day: played.day)
        let beat = others.flatMap {
            $0.players + 1 >= DailyChallenge.percentileFrom ? Int(($0.beatShare(played.score) * 100).rounded()) : nil
        }
        send(
            .dailyResult(
                DailyResultView(
                    score: played.score, total: played.total, stateName: info.name, beatPercent: beat,
                    streak: learner.dailyStreak, reward: reward,
                    answered: played.answered.flatMap { $0 < played.total ? $0 : nil },
                    friends: (others?.friends ?? []).sorted { ($1.score, $0.name) < ($0.score, $1.name) })),
            buttons: [[Button(.challengeFriend, .menu(.challenge))], [Button(.home, .menu(.home))]])
    }
}
