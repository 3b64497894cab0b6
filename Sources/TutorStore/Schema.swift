import GRDB

/// Named, append-only migrations. A migration that has shipped is never edited: add a new one.
/// They use plain SQL and table names (not app types), so they keep meaning what they meant.
enum Schema {
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-core") { db in
            try db.execute(
                sql: """
                    CREATE TABLE learner (
                        chat_id INTEGER PRIMARY KEY,
                        user_id INTEGER NOT NULL,
                        first_name TEXT NOT NULL,
                        language_code TEXT,
                        state_code TEXT CHECK (state_code IS NULL OR length(state_code) = 2),
                        time_zone TEXT,
                        reveal_answers INTEGER NOT NULL DEFAULT 0 CHECK (reveal_answers IN (0, 1)),
                        stopped INTEGER NOT NULL DEFAULT 0 CHECK (stopped IN (0, 1)),
                        blocked INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1)),
                        is_group INTEGER NOT NULL DEFAULT 0 CHECK (is_group IN (0, 1)),
                        joined_at REAL NOT NULL,
                        last_active_at REAL NOT NULL,
                        streak_current INTEGER NOT NULL DEFAULT 0 CHECK (streak_current >= 0),
                        streak_best INTEGER NOT NULL DEFAULT 0 CHECK (streak_best >= streak_current),
                        streak_last_day TEXT
                    );
                    CREATE INDEX learner_state ON learner(state_code);

                    -- Where each chat is in the dialogue (the open quiz included), as JSON.
                    CREATE TABLE session (
                        chat_id INTEGER PRIMARY KEY REFERENCES learner(chat_id) ON DELETE CASCADE,
                        body TEXT NOT NULL CHECK (json_valid(body)),
                        updated_at REAL NOT NULL
                    );

                    -- The per-question model: what review, mastery and weighting read.
                    CREATE TABLE question_progress (
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        question_id TEXT NOT NULL,
                        seen INTEGER NOT NULL CHECK (seen > 0),
                        correct INTEGER NOT NULL CHECK (correct BETWEEN 0 AND seen),
                        last_correct INTEGER NOT NULL CHECK (last_correct IN (0, 1)),
                        last_answered_at REAL NOT NULL,
                        missed INTEGER NOT NULL CHECK (missed IN (0, 1) AND NOT (missed = 1 AND last_correct = 1)),
                        PRIMARY KEY (chat_id, question_id)
                    ) WITHOUT ROWID;

                    -- Every answer ever given (history and statistics).
                    CREATE TABLE answer (
                        id INTEGER PRIMARY KEY,
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        question_id TEXT NOT NULL,
                        correct INTEGER NOT NULL CHECK (correct IN (0, 1)),
                        quiz_id INTEGER NOT NULL,
                        answered_at REAL NOT NULL,
                        local_day TEXT NOT NULL
                    );
                    CREATE INDEX answer_chat ON answer(chat_id, answered_at);
                    CREATE INDEX answer_time ON answer(answered_at);

                    CREATE TABLE quiz_result (
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        quiz_id INTEGER NOT NULL,
                        body TEXT NOT NULL CHECK (json_valid(body)),
                        correct INTEGER NOT NULL CHECK (correct >= 0),
                        total INTEGER NOT NULL CHECK (total >= correct),
                        finished_at REAL NOT NULL,
                        PRIMARY KEY (chat_id, quiz_id)
                    );

                    -- Messages to send, written in the same transaction as the state change that
                    -- caused them, sent after commit: in order per chat, marked sent when Telegram confirms.
                    CREATE TABLE outbox (
                        id INTEGER PRIMARY KEY,
                        chat_id INTEGER NOT NULL,
                        method TEXT NOT NULL,
                        body TEXT NOT NULL CHECK (json_valid(body)),
                        edit_tag TEXT,
                        save_tag TEXT,
                        picture TEXT,
                        priority INTEGER NOT NULL DEFAULT 0,
                        created_at REAL NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        not_before REAL NOT NULL DEFAULT 0,
                        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', \
                        'dropped')),
                        message_id INTEGER,
                        error TEXT
                    );
                    CREATE INDEX outbox_pending ON outbox(status, priority, id) WHERE status = 'pending';

                    -- Message ids of tagged messages (a quiz question), so a later edit can find them.
                    CREATE TABLE message_ref (
                        chat_id INTEGER NOT NULL,
                        tag TEXT NOT NULL,
                        message_id INTEGER NOT NULL,
                        PRIMARY KEY (chat_id, tag)
                    ) WITHOUT ROWID;

                    -- Uploaded pictures, reused by Telegram file_id.
                    CREATE TABLE picture_file (
                        picture TEXT PRIMARY KEY,
                        file_id TEXT NOT NULL
                    ) WITHOUT ROWID;

                    CREATE TABLE bot_state (
                        key TEXT PRIMARY KEY,
                        value TEXT NOT NULL
                    ) WITHOUT ROWID;
                    """)
        }
        m.registerMigration("v2-timers") { db in
            try db.execute(
                sql: """
                    -- Timers the dialogue set (a timed-challenge question's budget): kept here, not in
                    -- memory, so they still fire after a restart.
                    CREATE TABLE timer (
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        due_at REAL NOT NULL,
                        PRIMARY KEY (chat_id, key)
                    ) WITHOUT ROWID;
                    CREATE INDEX timer_due ON timer(due_at);
                    """)
        }
        m.registerMigration("v3-nudges") { db in
            try db.execute(
                sql: """
                    ALTER TABLE learner ADD COLUMN nudges_on INTEGER NOT NULL DEFAULT 1 CHECK (nudges_on IN (0, 1));
                    ALTER TABLE learner ADD COLUMN nudge_minute INTEGER NOT NULL DEFAULT 960 CHECK (nudge_minute \
                    BETWEEN 0 AND 1439);
                    ALTER TABLE learner ADD COLUMN last_nudge_day TEXT;
                    ALTER TABLE learner ADD COLUMN ignored_nudges INTEGER NOT NULL DEFAULT 0 CHECK (ignored_nudges \
                    >= 0);
                    ALTER TABLE learner ADD COLUMN next_nudge_at REAL;
                    ALTER TABLE learner ADD COLUMN streak_freezes INTEGER NOT NULL DEFAULT 0 CHECK (streak_freezes \
                    BETWEEN 0 AND 2);
                    -- Who to remind now is a range scan over this index, however many learners there are.
                    CREATE INDEX learner_next_nudge ON learner(next_nudge_at) WHERE next_nudge_at IS NOT NULL;
                    """)
        }
        m.registerMigration("v4-broadcasts") { db in
            try db.execute(
                sql: """
                    -- An admin's note to all learners or one state's. Enqueued in chunks by the running
                    -- bot; last_chat_id is how far it got, so a restart continues where it stopped.
                    CREATE TABLE broadcast (
                        id INTEGER PRIMARY KEY,
                        state_code TEXT CHECK (state_code IS NULL OR length(state_code) = 2),
                        text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 3500),
                        status TEXT NOT NULL CHECK (status IN ('draft', 'sending', 'done', 'cancelled')),
                        admin_chat_id INTEGER,
                        recipients INTEGER NOT NULL DEFAULT 0,
                        last_chat_id INTEGER NOT NULL DEFAULT -9223372036854775808,
                        created_at REAL NOT NULL,
                        finished_at REAL
                    );
                    -- One row per learner a broadcast was queued for: the primary key makes "never twice" a constraint.
                    CREATE TABLE broadcast_delivery (
                        broadcast_id INTEGER NOT NULL REFERENCES broadcast(id) ON DELETE CASCADE,
                        chat_id INTEGER NOT NULL,
                        PRIMARY KEY (broadcast_id, chat_id)
                    ) WITHOUT ROWID;
                    ALTER TABLE outbox ADD COLUMN broadcast_id INTEGER REFERENCES broadcast(id);
                    CREATE INDEX outbox_broadcast ON outbox(broadcast_id, status) WHERE broadcast_id IS NOT NULL;
                    """)
        }
        m.registerMigration("v5-cards-and-game") { db in
            try db.execute(
                sql: """
                    -- Each question's FSRS flashcard (every answered question feeds one).
                    CREATE TABLE card (
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        question_id TEXT NOT NULL,
                        state INTEGER NOT NULL CHECK (state IN (1, 2, 3)),
                        step INTEGER CHECK (step IS NULL OR step >= 0),
                        stability REAL CHECK (stability IS NULL OR stability > 0),
                        difficulty REAL CHECK (difficulty IS NULL OR difficulty BETWEEN 1 AND 10),
                        due REAL NOT NULL,
                        last_review REAL,
                        PRIMARY KEY (chat_id, question_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX card_due ON card(chat_id, due);
                    ALTER TABLE learner ADD COLUMN xp INTEGER NOT NULL DEFAULT 0 CHECK (xp >= 0);
                    ALTER TABLE learner ADD COLUMN badges TEXT NOT NULL DEFAULT '';
                    ALTER TABLE learner ADD COLUMN cards_reviewed INTEGER NOT NULL DEFAULT 0 CHECK (cards_reviewed \
                    >= 0);
                    ALTER TABLE learner ADD COLUMN four_button_cards INTEGER NOT NULL DEFAULT 0 CHECK \
                    (four_button_cards IN (0, 1));
                    ALTER TABLE learner ADD COLUMN answered_today INTEGER NOT NULL DEFAULT 0 CHECK (answered_today \
                    >= 0);
                    ALTER TABLE learner ADD COLUMN answered_day TEXT;
                    """)
        }
        m.registerMigration("v6-knowledge-tracing") { db in
            try db.execute(
                sql: """
                    -- What readiness reads per question (TutorCore's Knowledge): the first answer, and
                    -- the traced probability of knowing it with its time and memory strength.
                    ALTER TABLE question_progress ADD COLUMN first_correct INTEGER CHECK (first_correct IN (0, 1));
                    ALTER TABLE question_progress ADD COLUMN first_answered_at REAL;
                    ALTER TABLE question_progress ADD COLUMN knowledge REAL CHECK (knowledge IS NULL OR knowledge \
                    BETWEEN 0 AND 1);
                    ALTER TABLE question_progress ADD COLUMN knowledge_at REAL;
                    ALTER TABLE question_progress ADD COLUMN strength_days REAL CHECK (strength_days IS NULL OR \
                    strength_days > 0);
                    """)
        }
        m.registerMigration("v7-retention") { db in
            try db.execute(
                sql: """
                    -- When a message id was saved, so ids of long-finished quizzes can be pruned.
                    ALTER TABLE message_ref ADD COLUMN saved_at REAL;
                    CREATE INDEX outbox_done ON outbox(created_at) WHERE status != 'pending';
                    """)
        }
        m.registerMigration("v8-lessons") { db in
            try db.execute(
                sql: """
                    -- Lessons a learner finished (read and checked, or tested out of).
                    CREATE TABLE lesson_progress (
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        lesson_id TEXT NOT NULL CHECK (length(lesson_id) BETWEEN 1 AND 64),
                        completed_at REAL NOT NULL,
                        PRIMARY KEY (chat_id, lesson_id)
                    ) WITHOUT ROWID;
                    -- When a lesson's check asked a question before any other answer did (not a first answer).
                    ALTER TABLE question_progress ADD COLUMN taught_at REAL;
                    """)
        }
        m.registerMigration("v9-friends") { db in
            try db.execute(
                sql: """
                    -- A friend challenge: ten questions its maker played; the token is the whole link.
                    CREATE TABLE challenge (
                        token TEXT PRIMARY KEY CHECK (length(token) = 22),
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        creator_name TEXT NOT NULL CHECK (length(creator_name) BETWEEN 1 AND 64),
                        question_ids TEXT NOT NULL CHECK (json_valid(question_ids)),
                        creator_correct TEXT NOT NULL CHECK (length(creator_correct) BETWEEN 1 AND 20 AND \
                        creator_correct NOT GLOB '*[^01]*'),
                        created_at REAL NOT NULL,
                        expires_at REAL NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX challenge_by_chat ON challenge(chat_id);
                    -- Who played which challenge (once each), and how.
                    CREATE TABLE challenge_play (
                        token TEXT NOT NULL,
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        correct TEXT NOT NULL CHECK (length(correct) BETWEEN 1 AND 20 AND correct NOT GLOB '*[^01]*'),
                        played_at REAL NOT NULL,
                        PRIMARY KEY (token, chat_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX challenge_play_by_chat ON challenge_play(chat_id);
                    -- Friends, one row each way.
                    CREATE TABLE friendship (
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        friend_chat_id INTEGER NOT NULL CHECK (friend_chat_id <> chat_id),
                        since REAL NOT NULL,
                        PRIMARY KEY (chat_id, friend_chat_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX friendship_by_friend ON friendship(friend_chat_id);
                    -- The weekly friends' league: XP this league week (Monday, US Eastern), and opting out of it.
                    ALTER TABLE learner ADD COLUMN week_xp INTEGER NOT NULL DEFAULT 0 CHECK (week_xp >= 0);
                    ALTER TABLE learner ADD COLUMN xp_week TEXT;
                    ALTER TABLE learner ADD COLUMN prev_week_xp INTEGER NOT NULL DEFAULT 0 CHECK (prev_week_xp >= 0);
                    ALTER TABLE learner ADD COLUMN hide_from_friends INTEGER NOT NULL DEFAULT 0 CHECK \
                    (hide_from_friends IN (0, 1));
                    -- The daily challenge: the learner's last day and streak, and every score of a state's day \
                    (anonymous).
                    ALTER TABLE learner ADD COLUMN daily_day TEXT;
                    ALTER TABLE learner ADD COLUMN daily_streak INTEGER NOT NULL DEFAULT 0 CHECK (daily_streak >= 0);
                    CREATE TABLE daily_result (
                        state_code TEXT NOT NULL CHECK (length(state_code) = 2),
                        day TEXT NOT NULL,
                        chat_id INTEGER NOT NULL REFERENCES learner(chat_id) ON DELETE CASCADE,
                        score INTEGER NOT NULL CHECK (score BETWEEN 0 AND 5),
                        PRIMARY KEY (state_code, day, chat_id)
                    ) WITHOUT ROWID;
                    CREATE INDEX daily_result_by_chat ON daily_result(chat_id);
                    -- Players per score of a state's day, kept with every result: "you beat 72%" reads six rows, \
                    not the day.
                    CREATE TABLE daily_tally (
                        state_code TEXT NOT NULL,
                        day TEXT NOT NULL,
                        score INTEGER NOT NULL,
                        players INTEGER NOT NULL CHECK (players >= 0),
                        PRIMARY KEY (state_code, day, score)
                    ) WITHOUT ROWID;
                    """)
        }
        registerLaterMigrations(&m)
        return m
    }
}
