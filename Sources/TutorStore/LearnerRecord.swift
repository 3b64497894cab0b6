import Foundation
import GRDB
import TutorCore

/// The `learner` table as one GRDB record: its columns (`Columns`), how a `Learner` fills them
/// (`encode(to:)`) and how a stored row reads back (`init(row:)`: every value checked, a bad one
/// mended and noted, never trusted). A save writes only the columns that changed (GRDB's
/// `databaseChanges(from:)`): an answer changes three or four of the 33.
struct LearnerRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "learner"

    enum Columns: String, ColumnExpression, CaseIterable {
        case chatID = "chat_id"
        case userID = "user_id"
        case firstName = "first_name"
        case languageCode = "language_code"
        case stateCode = "state_code"
        case timeZone = "time_zone"
        case revealAnswers = "reveal_answers"
        case stopped, blocked
        case isGroup = "is_group"
        case joinedAt = "joined_at"
        case lastActiveAt = "last_active_at"
        case streakCurrent = "streak_current"
        case streakBest = "streak_best"
        case streakLastDay = "streak_last_day"
        case streakFreezes = "streak_freezes"
        case nudgesOn = "nudges_on"
        case nudgeMinute = "nudge_minute"
        case lastNudgeDay = "last_nudge_day"
        case ignoredNudges = "ignored_nudges"
        case nextNudgeAt = "next_nudge_at"
        case xp, badges
        case cardsReviewed = "cards_reviewed"
        case fourButtonCards = "four_button_cards"
        case answeredToday = "answered_today"
        case answeredDay = "answered_day"
        case weekXP = "week_xp"
        case xpWeek = "xp_week"
        case hideFromFriends = "hide_from_friends"
        case prevWeekXP = "prev_week_xp"
        case dailyDay = "daily_day"
        case dailyStreak = "daily_streak"
    }

    /// Written once, when the row is inserted: a save never changes them.
    static let fixedColumns: Set<String> = [Columns.chatID.rawValue, Columns.joinedAt.rawValue]

    var learner: Learner
    /// What reading the row mended (a value of the wrong type, or outside its CHECK).
    var repairs: [String] = []
    /// The row's version (`ChatVersions`): read here, claimed there, never written by a save.
    var version: Int64 = 0

    init(_ learner: Learner) { self.learner = learner }

    init(row: Row) {
        let chatID = (try? row.decode(Int64.self, forColumn: Columns.chatID.rawValue)) ?? 0
        var r = RowReader(row: row, table: "learner", key: "chat \(chatID)")
        func day(_ c: Columns) -> LocalDay? { r.value(c.rawValue, String?.none).flatMap(LocalDay.init(iso:)) }
        func date(_ c: Columns) -> Date? { r.value(c.rawValue, Double?.none).map(Date.init(timeIntervalSince1970:)) }
        let now = Date()
        var l = Learner(
            chatID: chatID, userID: r.value(Columns.userID.rawValue, chatID),
            firstName: r.value(Columns.firstName.rawValue, ""),
            languageCode: r.value(Columns.languageCode.rawValue, String?.none),
            stateCode: r.value(Columns.stateCode.rawValue, String?.none),
            timeZone: r.value(Columns.timeZone.rawValue, "America/New_York"),
            revealAnswersAsYouGo: r.value(Columns.revealAnswers.rawValue, false),
            stopped: r.value(Columns.stopped.rawValue, false), blocked: r.value(Columns.blocked.rawValue, false),
            isGroup: r.value(Columns.isGroup.rawValue, false),
            joinedAt: date(.joinedAt) ?? now, lastActiveAt: date(.lastActiveAt) ?? now,
            streak: Streak(
                current: r.value(Columns.streakCurrent.rawValue, 0), best: r.value(Columns.streakBest.rawValue, 0),
                lastDay: day(.streakLastDay), freezes: r.value(Columns.streakFreezes.rawValue, 0)),
            nudgesOn: r.value(Columns.nudgesOn.rawValue, true), nudgeMinute: r.value(Columns.nudgeMinute.rawValue, 960),
            lastNudgeDay: day(.lastNudgeDay), ignoredNudges: r.value(Columns.ignoredNudges.rawValue, 0),
            nextNudgeAt: date(.nextNudgeAt))
        l.xp = r.value(Columns.xp.rawValue, 0)
        l.badges = Set(
            r.value(Columns.badges.rawValue, "").split(separator: ",").compactMap { Badge(rawValue: String($0)) })
        l.cardsReviewed = r.value(Columns.cardsReviewed.rawValue, 0)
        l.fourButtonCards = r.value(Columns.fourButtonCards.rawValue, false)
        l.answeredToday = r.value(Columns.answeredToday.rawValue, 0)
        l.answeredDay = day(.answeredDay)
        l.weekXP = r.value(Columns.weekXP.rawValue, 0)
        l.xpWeek = day(.xpWeek)
        l.prevWeekXP = r.value(Columns.prevWeekXP.rawValue, 0)
        l.dailyDay = day(.dailyDay)
        l.dailyStreak = r.value(Columns.dailyStreak.rawValue, 0)
        l.hideFromFriends = r.value(Columns.hideFromFriends.rawValue, false)
        r.clamp(&l)
        learner = l
        version = row.hasColumn("version") ? r.value("version", Int64(0)) : 0
        repairs = r.repairs
    }

    func encode(to container: inout PersistenceContainer) {
        let l = learner
        container[Columns.chatID] = l.chatID
        container[Columns.userID] = l.userID
        container[Columns.firstName] = l.firstName
        container[Columns.languageCode] = l.languageCode
        container[Columns.stateCode] = l.stateCode
        container[Columns.timeZone] = l.timeZone
        container[Columns.revealAnswers] = l.revealAnswersAsYouGo
        container[Columns.stopped] = l.stopped
        container[Columns.blocked] = l.blocked
        container[Columns.isGroup] = l.isGroup
        container[Columns.joinedAt] = l.joinedAt.timeIntervalSince1970
        container[Columns.lastActiveAt] = l.lastActiveAt.timeIntervalSince1970
        container[Columns.streakCurrent] = l.streak.current
        container[Columns.streakBest] = l.streak.best
        container[Columns.streakLastDay] = l.streak.lastDay?.description
        container[Columns.streakFreezes] = l.streak.freezes
        container[Columns.nudgesOn] = l.nudgesOn
        container[Columns.nudgeMinute] = l.nudgeMinute
        container[Columns.lastNudgeDay] = l.lastNudgeDay?.description
        container[Columns.ignoredNudges] = l.ignoredNudges
        container[Columns.nextNudgeAt] = l.nextNudgeAt?.timeIntervalSince1970
        container[Columns.xp] = l.xp
        container[Columns.badges] = l.badges.map(\.rawValue).sorted().joined(separator: ",")
        container[Columns.cardsReviewed] = l.cardsReviewed
        container[Columns.fourButtonCards] = l.fourButtonCards
        container[Columns.answeredToday] = l.answeredToday
        container[Columns.answeredDay] = l.answeredDay?.description
        container[Columns.weekXP] = l.weekXP
        container[Columns.xpWeek] = l.xpWeek?.description
        container[Columns.hideFromFriends] = l.hideFromFriends
        container[Columns.prevWeekXP] = l.prevWeekXP
        container[Columns.dailyDay] = l.dailyDay?.description
        container[Columns.dailyStreak] = l.dailyStreak
    }

    /// The columns a save writes: those whose values differ from `before`'s (the row as stored),
    /// never the fixed ones. A value that loads back tidied without being a repair (a badge this
    /// version doesn't know, a day written loosely) stays as stored until its field changes.
    func changedColumns(from before: LearnerRecord) throws -> Set<String> {
        Set(try databaseChanges(from: before).keys).subtracting(Self.fixedColumns)
    }

    /// Saves `after`: the whole row when there is no trusted `before` (a new learner, or one loaded
    /// with mended values), else only the changed columns; a row gone meanwhile (erased by
    /// another process sharing the file) is written whole again.
    static func save(_ db: Database, before: Learner?, after: Learner) throws {
        let record = LearnerRecord(after)
        guard let before else { return try record.insertOrOverwrite(db) }
        guard before != after else { return }
        let columns = try record.changedColumns(from: LearnerRecord(before))
        guard !columns.isEmpty else { return }
        do { try record.update(db, columns: columns) } catch RecordError.recordNotFound {
            try record.insertOrOverwrite(db)
        }
    }

    /// Inserts the row, or overwrites every column of an existing one but the fixed ones.
    func insertOrOverwrite(_ db: Database) throws {
        _ = try upsertAndFetch(db, onConflict: [Columns.chatID.rawValue]) { _ in
            Self.fixedColumns.map { Column($0).noOverwrite }
        }
    }
}
