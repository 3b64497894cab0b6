import GRDB

/// The migrations after the first nine (friends, the outbox by chat, Daily 5, the ask log, the
/// learner's version): appended here in order, never edited once shipped (see `Schema`).
extension Schema {
    static func registerLaterMigrations(_ m: inout DatabaseMigrator) {
        m.registerMigration("v10-outbox-by-chat") { db in
            try db.execute(
                sql: """
                    -- A chat's next pending row, asked after every message sent: without it each ask
                    -- scanned every pending row (a third of the bot's CPU at 1,000 learners at once).
                    CREATE INDEX outbox_pending_by_chat ON outbox(chat_id, id, priority, not_before) WHERE status = \
                    'pending';
                    -- When the next held row (a retry, news in quiet hours) comes due: the sender's
                    -- timed wake, asked after every look at the queue.
                    CREATE INDEX outbox_pending_due ON outbox(not_before) WHERE status = 'pending';
                    """)
        }
        m.registerMigration("v11-friendship-removed") { db in
            try db.execute(
                sql: """
                    -- A removed friendship is kept until the week after it ended: last week's league is
                    -- judged with who was a friend when it ended, whoever looks first.
                    ALTER TABLE friendship ADD COLUMN removed_at REAL;
                    """)
        }
        m.registerMigration("v12-outbox-ids-never-reused") { db in
            try db.execute(
                sql: """
                    -- The sender reads each new row once, as those after the highest id it has read
                    -- (OutboxQueue): a plain rowid table gives a deleted highest id to the next row,
                    -- which that read would never see. AUTOINCREMENT never hands an id out twice.
                    -- The due-time index goes: the sender keeps the held rows' times in memory.
                    CREATE TABLE outbox_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
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
                        error TEXT,
                        broadcast_id INTEGER REFERENCES broadcast(id)
                    );
                    INSERT INTO outbox_new(id, chat_id, method, body, edit_tag, save_tag, picture, priority, \
                    created_at, attempts,
                        not_before, status, message_id, error, broadcast_id)
                    SELECT id, chat_id, method, body, edit_tag, save_tag, picture, priority, created_at, attempts,
                        not_before, status, message_id, error, broadcast_id FROM outbox;
                    DROP TABLE outbox;
                    ALTER TABLE outbox_new RENAME TO outbox;
                    CREATE INDEX outbox_pending ON outbox(status, priority, id) WHERE status = 'pending';
                    CREATE INDEX outbox_broadcast ON outbox(broadcast_id, status) WHERE broadcast_id IS NOT NULL;
                    CREATE INDEX outbox_done ON outbox(created_at) WHERE status != 'pending';
                    CREATE INDEX outbox_pending_by_chat ON outbox(chat_id, id, priority, not_before) WHERE status = \
                    'pending';
                    """)
        }
        m.registerMigration("v13-daily-set") { db in
            try db.execute(
                sql: """
                    -- A state's Daily 5 as first dealt each day: a bank reload later that day deals
                    -- the same five (those it still has), so everyone's scores compare the same questions.
                    CREATE TABLE daily_set (
                        state_code TEXT NOT NULL CHECK (length(state_code) = 2),
                        day TEXT NOT NULL,
                        question_ids TEXT NOT NULL CHECK (json_valid(question_ids)),
                        PRIMARY KEY (state_code, day)
                    ) WITHOUT ROWID;
                    """)
        }
        m.registerMigration("v14-erase-by-chat") { db in
            try db.execute(
                sql: """
                    -- "Delete my data" deletes a chat's rows from every table inside the batch's write
                    -- transaction: these two had no index that starts with chat_id for every row
                    -- (outbox's covers pending rows only), so each erase scanned them whole.
                    CREATE INDEX outbox_by_chat ON outbox(chat_id);
                    CREATE INDEX broadcast_delivery_by_chat ON broadcast_delivery(chat_id);
                    """)
        }
        m.registerMigration("v15-ask-log") { db in
            try db.execute(
                sql: """
                    -- Typed questions and the card that answered each (NULL: none did), with the
                    -- learner's vote (1 helpful, 0 not): kept 14 days, erased with the learner.
                    CREATE TABLE ask_log (
                        id INTEGER PRIMARY KEY,
                        chat_id INTEGER NOT NULL,
                        asked_at REAL NOT NULL,
                        text TEXT NOT NULL,
                        ref TEXT,
                        helpful INTEGER CHECK (helpful IN (0, 1))
                    );
                    CREATE INDEX ask_log_by_chat ON ask_log(chat_id, ref);
                    CREATE INDEX ask_log_by_time ON ask_log(asked_at);
                    """)
        }
        m.registerMigration("v16-broadcast-updates") { db in
            try db.execute(
                sql: """
                    -- The admin's update that made the draft and the one that sent or cancelled it: an
                    -- admin command runs before its batch commits, so a batch delivered again after a
                    -- crash finds its own draft and decision instead of making a second draft or
                    -- telling the admin "Already sent".
                    ALTER TABLE broadcast ADD COLUMN created_by_update INTEGER;
                    ALTER TABLE broadcast ADD COLUMN decided_by_update INTEGER;
                    CREATE UNIQUE INDEX broadcast_by_creating_update ON broadcast(created_by_update)
                        WHERE created_by_update IS NOT NULL;
                    """)
        }
        m.registerMigration("v17-learner-version") { db in
            try db.execute(
                sql: """
                    -- Bumped by every save of the chat: a save checks it is still the version its copy
                    -- of the chat was read at, so a process holding a stale copy (a second console on
                    -- the file) reloads and redoes its work instead of overwriting newer progress.
                    ALTER TABLE learner ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
                    """)
        }
    }
}
