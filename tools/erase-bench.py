#!/usr/bin/env python3
# Usage: permitready migrate --db /tmp/erase.sqlite && python3 tools/erase-bench.py /tmp/erase.sqlite
# Erase cost at 100,000 learners: sent outbox rows (kept 7 days: ~20 a learner) and broadcast deliveries.
import sqlite3, time, sys, statistics
db=sys.argv[1]
c=sqlite3.connect(db, isolation_level=None)
c.execute("PRAGMA foreign_keys=ON")
c.execute("BEGIN")
c.executemany("INSERT INTO broadcast(id,text,status,created_at) VALUES (?,?,?,?)", [(i,'hi','done',0) for i in range(1,4)])
body='{"chat_id":1,"text":"' + 'x'*200 + '"}'
c.executemany("INSERT INTO outbox(chat_id,method,body,created_at,status,message_id) VALUES (?,?,?,?,?,?)",
              ((chat, 'sendMessage', body, 0, 'sent', 1) for chat in range(1,100001) for _ in range(20)))
c.executemany("INSERT INTO broadcast_delivery(broadcast_id,chat_id) VALUES (?,?)", ((b,chat) for b in range(1,4) for chat in range(1,100001)))
c.execute("COMMIT")
def erase(chat):
    t=time.perf_counter()
    c.execute("BEGIN IMMEDIATE")
    c.execute("DELETE FROM broadcast_delivery WHERE chat_id=?", (chat,))
    c.execute("DELETE FROM outbox WHERE chat_id=?", (chat,))
    c.execute("ROLLBACK")
    return (time.perf_counter()-t)*1000
for label, drop in [("before (no chat_id index)", True), ("after (v14 indexes)", False)]:
    if drop:
        c.execute("DROP INDEX IF EXISTS outbox_by_chat"); c.execute("DROP INDEX IF EXISTS broadcast_delivery_by_chat")
    else:
        c.execute("CREATE INDEX IF NOT EXISTS outbox_by_chat ON outbox(chat_id)"); c.execute("CREATE INDEX IF NOT EXISTS broadcast_delivery_by_chat ON broadcast_delivery(chat_id)")
    times=[erase(chat) for chat in range(5000, 5000+20)]
    print(f"{label}: median {statistics.median(times):.2f} ms, max {max(times):.2f} ms per erase (2,000,000 sent outbox rows, 300,000 deliveries)")
