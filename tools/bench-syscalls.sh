#!/bin/bash
# The I/O path's costs counted, not timed: runs `permitready-bench --rss` (1,000 learners in a
# quiz at once against the fake Bot API) and counts the bot's system calls, context switches and
# CPU per update with perf's software events, which need no hardware counters (VMs have none)
# and give nearly the same figures on a busy machine as on a quiet one, where the CPU time per
# update moves ±6% with how the bot and the harness share the cores.
#
# usage: tools/bench-syscalls.sh [DIR]   DIR holds permitready and permitready-bench (release
#        builds; default .build/release). Needs perf (apt-get install linux-perf) and root or
#        kernel.perf_event_paranoid <= 1.
set -euo pipefail
dir=${1:-.build/release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$dir/permitready-bench" --rss > "$out/bench.txt" 2>&1 &
bench=$!
pid=""
for _ in $(seq 1 600); do
  pid=$(pgrep -f "$dir/permitready run" | head -1 || true)
  [ -n "$pid" ] && break
  sleep 0.05
done
[ -n "$pid" ] || { echo "the bot did not start; the bench said:"; cat "$out/bench.txt"; exit 1; }
# Attach once its threads are up: perf counts only the threads there when it attaches (attached
# in the first instants it missed most of the run; before the curl thread started, all of its
# calls). The curl thread is named (`CurlTransport.threadName`) and starts last of the long-lived.
for _ in $(seq 1 200); do
  grep -qx curl-transport /proc/"$pid"/task/*/comm 2>/dev/null && [ "$(ls /proc/"$pid"/task 2>/dev/null | wc -l)" -ge 4 ] && break
  sleep 0.05
done
sleep 0.5
events=task-clock,context-switches,raw_syscalls:sys_enter
for s in sendto recvfrom poll futex write read pwrite64 epoll_wait epoll_ctl; do events="$events,syscalls:sys_enter_$s"; done
perf stat -e "$events" -p "$pid" -o "$out/perf.txt" > /dev/null 2>&1 &
perfpid=$!
wait "$bench"
wait "$perfpid" || true
python3 - "$out/perf.txt" "$out/bench.txt" <<'PY'
import re, sys
perf, bench = open(sys.argv[1]).read(), open(sys.argv[2]).read()
print(bench.strip())
rate = re.search(r'([0-9]+) updates/s', bench); secs = re.search(r'finished in ([0-9.]+) s', bench)
if not (rate and secs): sys.exit("no update count in the bench's output")
updates = float(rate.group(1)) * float(secs.group(1))
print(f"per update (~{updates:,.0f} updates):")
for m in (x for x in re.finditer(r'^\s+([\d,.]+)\s+(?:msec\s+)?([\w:-]+)', perf, re.M) if x.group(2) != "seconds"):
    name = m.group(2).replace('raw_syscalls:sys_enter', 'all system calls').replace('syscalls:sys_enter_', '')
    value = float(m.group(1).replace(',', '')) / updates
    print(f"  {name:18} {value * 1000:8.0f} µs" if name == 'task-clock' else f"  {name:18} {value:8.2f}")
PY
