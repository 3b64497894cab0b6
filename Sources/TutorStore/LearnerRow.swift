import Foundation
import GRDB
import TutorCore

/// The `learner` table's columns and how a `Learner` fills each: one list for the whole-row
/// upsert (a new or mended learner) and for the narrow update of an ordinary save, which writes
/// only the columns whose values changed. (A save used to rewrite all 33 columns; an answer
/// changes three or four, and the wide upsert's arguments and SQLite's rewrite of the row and
/// its indexes were a good part of an update's write.)
enum LearnerRow {
    struct Column: Sendable {
        let name: String
        /// false: written when the row is first inserted, never changed after (`chat_id`, `joined_at`).
        let updatable: Bool
        let value: @Sendable (Learner) -> DatabaseValue
        /// Whether two learners agree on this column: compares the field itself, so a save
        /// computes values (a string for a day, the badges' list) only for the columns it writes.
        let same: @Sendable (Learner, Learner) -> Bool
    }

    static let columns: [Column] = [
        column("chat_id", { $0.chatID }, updatable: false) { $0 },
        column("user_id", { $0.userID }) { $0 },
        column("first_name", { $0.firstName }) { $0 },
        column("language_code", { $0.languageCode }) { $0 },
        column("state_code", { $0.stateCode }) { $0 },
        column("time_zone", { $0.timeZone }) { $0 },
        column("reveal_answers", { $0.revealAnswersAsYouGo }) { $0 },
        column("stopped", { $0.stopped }) { $0 },
        column("blocked", { $0.blocked }) { $0 },
        column("is_group", { $0.isGroup }) { $0 },
        column("joined_at", { $0.joinedAt }, updatable: false) { $0.timeIntervalSince1970 },
        column("last_active_at", { $0.lastActiveAt }) { $0.timeIntervalSince1970 },
        column("streak_current", { $0.streak.current }) { $0 },
        column("streak_best", { $0.streak.best }) { $0 },
        column("streak_last_day", { $0.streak.lastDay }) { $0?.description },
        column("streak_freezes", { $0.streak.freezes }) { $0 },
        column("nudges_on", { $0.nudgesOn }) { $0 },
        column("nudge_minute", { $0.nudgeMinute }) { $0 },
        column("last_nudge_day", { $0.lastNudgeDay }) { $0?.description },
        column("ignored_nudges", { $0.ignoredNudges }) { $0 },
        column("next_nudge_at", { $0.nextNudgeAt }) { $0?.timeIntervalSince1970 },
        column("xp", { $0.xp }) { $0 },
        column("badges", { $0.badges }) { $0.map(\.rawValue).sorted().joined(separator: ",") },
        column("cards_reviewed", { $0.cardsReviewed }) { $0 },
        column("four_button_cards", { $0.fourButtonCards }) { $0 },
        column("answered_today", { $0.answeredToday }) { $0 },
        column("answered_day", { $0.answeredDay }) { $0?.description },
        column("week_xp", { $0.weekXP }) { $0 },
        column("xp_week", { $0.xpWeek }) { $0?.description },
        column("hide_from_friends", { $0.hideFromFriends }) { $0 },
        column("prev_week_xp", { $0.prevWeekXP }) { $0 },
        column("daily_day", { $0.dailyDay }) { $0?.description },
        column("daily_streak", { $0.dailyStreak }) { $0 },
    ]

    private static func column<V: Equatable & Sendable & SendableMetatype>(
        _ name: String, _ field: @escaping @Sendable (Learner) -> V, updatable: Bool = true,
        _ stored: @escaping @Sendable (V) -> (any DatabaseValueConvertible)?
    ) -> Column {
        Column(
            name: name, updatable: updatable,
            value: { stored(field($0))?.databaseValue ?? .null },
            same: { field($0) == field($1) })
    }

    /// Inserts the whole row, or overwrites every updatable column of an existing one.
    static let upsertSQL: String = {
        let names = columns.map(\.name)
        let updates = columns.filter(\.updatable).map { "\($0.name) = excluded.\($0.name)" }
        return
            "INSERT INTO learner(\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
            + " ON CONFLICT(chat_id) DO UPDATE SET \(updates.joined(separator: ", "))"
    }()

    static func values(_ l: Learner) -> [DatabaseValue] { columns.map { $0.value(l) } }

    /// What a save writes: nothing, the whole row, or the changed columns (by index in `columns`).
    enum Write: Sendable {
        case unchanged
        case whole([DatabaseValue])
        case changed([(column: Int, value: DatabaseValue)])
    }

    /// `before`: the row as stored (nil for a new learner, or one loaded with mended values, whose
    /// stored row can't be trusted to be what `before` says). A value that loads back tidied
    /// without being a repair (a badge this version doesn't know, a day written loosely) stays
    /// as stored until its field changes, where the whole-row upsert rewrote it at once.
    /// Each set of changed columns is its own cached statement: a few dozen sets occur.
    static func write(before: Learner?, after: Learner) -> Write {
        guard let before else { return .whole(values(after)) }
        if before == after { return .unchanged }
        var changed: [(column: Int, value: DatabaseValue)] = []
        for (i, c) in columns.enumerated() where c.updatable && !c.same(before, after) {
            changed.append((i, c.value(after)))
        }
        return changed.isEmpty ? .unchanged : .changed(changed)
    }

    /// Through GRDB's existential initializer: its generic one maps each value by key path,
    /// unspecialized across the module boundary (~16,000 instructions for a five-column update).
    private static func arguments(_ values: [DatabaseValue]) -> StatementArguments {
        StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? })
    }

    static func save(_ db: Database, _ write: Write, _ learner: Learner) throws {
        switch write {
        case .unchanged:
            return
        case .whole(let values):
            try db.cachedStatement(sql: upsertSQL).execute(arguments: arguments(values))
        case .changed(let changed):
            let sets = changed.map { "\(columns[$0.column].name) = ?" }.joined(separator: ", ")
            try db.cachedStatement(sql: "UPDATE learner SET \(sets) WHERE chat_id = ?")
                .execute(arguments: arguments(changed.map(\.value) + [learner.chatID.databaseValue]))
            // The row went meanwhile (erased by another process sharing the file): written whole
            // again, as the upsert always did.
            if db.changesCount == 0 { try save(db, .whole(values(learner)), learner) }
        }
    }
}
