#!/usr/bin/env bash
# Backup drill: `permitready backup` while learners are being committed, then `permitready
# restore` into a fresh path; every learner committed before the backup started must be there.
#
#   deploy/backup-drill.sh [path-to-permitready]
#
# Environment: DRILL_SEED_SECONDS (5) seconds of filling the database as fast as it goes first;
# DRILL_RATE (50) commits per second during the backup; KEEP=1 keeps the temporary directory.
# Needs python3 (its sqlite3 module reads the results).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
seed_seconds="${DRILL_SEED_SECONDS:-5}"
rate="${DRILL_RATE:-50}"
die() { echo "backup-drill: $*" >&2; exit 1; }

bin="${1:-}"
if [ -z "$bin" ]; then
  for c in "$here/../permitready" "$here/../.build/release/permitready" "$here/../.build/debug/permitready"; do
    if [ -x "$c" ]; then bin="$c"; break; fi
  done
fi
[ -n "$bin" ] && [ -x "$bin" ] || die "no permitready binary found; pass its path as the first argument"
command -v python3 >/dev/null || die "python3 is needed (apt-get install python3)"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/backup-drill.XXXXXX")"
writer_pid=""
cleanup() {
  [ -z "$writer_pid" ] || kill -9 "$writer_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
now() { date +%s.%N; }
ms() { python3 -c "import sys; print(f'{(float(sys.argv[2]) - float(sys.argv[1])) * 1000:.0f}')" "$1" "$2"; }
live="$tmp/live.sqlite"

echo "permitready: $bin ($("$bin" --version)); temp dir $tmp"
if [ "$seed_seconds" != 0 ]; then
  "$bin" write-load --db "$live" --per-second 100000 --seconds "$seed_seconds" >"$tmp/seed.txt"
fi
seeded="$(cat "$tmp/seed.txt" 2>/dev/null | wc -l)"
"$bin" write-load --db "$live" --per-second "$rate" --first-chat $((seeded + 1)) >"$tmp/commits.txt" 2>"$tmp/writer.err" &
writer_pid=$!
sleep 2
[ -s "$tmp/commits.txt" ] || die "the writer committed nothing: $(cat "$tmp/writer.err")"

# Every line printed so far is a committed learner: the backup must hold at least these.
before=$((seeded + $(wc -l <"$tmp/commits.txt")))
t0="$(now)"
"$bin" backup --db "$live" --to "$tmp/backup.sqlite"
t1="$(now)"
sleep 1
{ kill -9 "$writer_pid"; wait "$writer_pid"; } 2>/dev/null || true; writer_pid=""
after=$((seeded + $(wc -l <"$tmp/commits.txt")))

mkdir "$tmp/fresh"
fresh="$tmp/fresh/permitready.sqlite"
t2="$(now)"
"$bin" restore --db "$fresh" --from "$tmp/backup.sqlite"
t3="$(now)"

python3 - "$fresh" "$before" "$after" <<'PY'
import sqlite3, sys
path, before, after = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
check = db.execute("PRAGMA integrity_check").fetchone()[0]
m, top = db.execute("SELECT COUNT(*), COALESCE(MAX(chat_id), 0) FROM learner").fetchone()
answers = db.execute("SELECT COUNT(*) FROM answer").fetchone()[0]
cards = db.execute("SELECT COUNT(*) FROM card").fetchone()[0]
print(f"committed before the backup started: {before}; restored: {m} learners, {answers} answers, {cards} cards; "
      f"committed in all: {after}; integrity {check}")
problems = []
if check != "ok": problems.append(f"integrity_check: {check}")
if m < before: problems.append(f"{before - m} learners committed before the backup are missing")
if m > after + 1: problems.append("more learners than were ever committed")
if top != m: problems.append(f"chat ids are not 1..{m} (highest {top})")
if answers != 3 * m or cards != m: problems.append("torn transactions")
if problems:
    print("DRILL FAILED: " + "; ".join(problems)); sys.exit(1)
PY

# A restore while another process holds the database's lock (as the running bot does) must refuse;
# once the holder is gone it needs no force, and keeps the replaced file under a name of its own.
python3 -c "import fcntl, sys, time; f = open(sys.argv[1] + '.lock', 'a'); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(5)" "$fresh" &
holder=$!
sleep 1
if "$bin" restore --db "$fresh" --from "$tmp/backup.sqlite" 2>"$tmp/refusal.txt"; then
  die "restore over a database another process holds did not refuse"
fi
echo "refused while another process holds it: $(cat "$tmp/refusal.txt")"
kill "$holder"; wait "$holder" 2>/dev/null || true
"$bin" restore --db "$fresh" --from "$tmp/backup.sqlite" >/dev/null
ls "$fresh".before-restore-* >/dev/null 2>&1 || die "restore did not keep the replaced database as .before-restore-<time>"
echo "restored and kept the replaced database as $(basename "$(ls "$fresh".before-restore-* | grep -v -- '-wal$' | head -1)")"

echo "backup took $(ms "$t0" "$t1") ms ($(du -h "$tmp/backup.sqlite" | cut -f1)) with the writer running; restore took $(ms "$t2" "$t3") ms"
echo "DRILL PASSED"
