#!/usr/bin/env bash
# Proves a release tarball runs without the Swift toolchain: unpacks it into an empty directory,
# checks ldd names no libswift, and runs --version, banks validate and a console chat with PATH
# and LD_LIBRARY_PATH free of /opt/swift. Prints the binary's size and start-up time.
set -euo pipefail
tarball=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$tarball"
release=$(ls -d "$work"/permitready-*)
bin="$release/permitready"
clean_env=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work" LANG=C.UTF-8)

if ldd "$bin" | grep -i 'swift'; then echo "FAIL: the binary still links the Swift runtime dynamically"; exit 1; fi
echo "ldd: $(ldd "$bin" | wc -l) libraries, none from the Swift toolchain ($(ldd "$bin" | awk '{print $1}' | tr '\n' ' '))"

empty="$work/empty"; mkdir "$empty"; cd "$empty"
"${clean_env[@]}" "$bin" --version
"${clean_env[@]}" "$bin" banks validate --dir "$release/Banks"
out=$(printf '/start\nTexas\n/quit\n' | "${clean_env[@]}" "$bin" chat --db "$empty/chat.sqlite" --banks "$release/Banks" --prompts "$release/Prompts/en")
echo "$out" | grep -q "Which state" || { echo "FAIL: the console chat did not greet"; echo "$out" | head; exit 1; }
echo "$out" | grep -q "Questions seen" || { echo "FAIL: the console chat did not reach the home screen"; echo "$out" | head -40; exit 1; }
echo "chat from an empty directory: greeted, state picked, home screen shown"

# Start-up to first reply: process start, banks loaded and validated, database created and
# migrated, /start answered, exit. Median of 5.
times=()
for i in 1 2 3 4 5; do
  rm -f "$empty/t.sqlite"*
  t0=$(date +%s%N)
  printf '/start\n' | "${clean_env[@]}" "$bin" chat --db "$empty/t.sqlite" --banks "$release/Banks" --prompts "$release/Prompts/en" >/dev/null
  times+=($(( ($(date +%s%N) - t0) / 1000000 )))
done
median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
size=$(stat -c %s "$bin")
echo "binary $(( size / 1024 / 1024 )) MiB stripped ($size bytes); tarball $(( $(stat -c %s "$tarball") / 1024 / 1024 )) MiB; start-up to first reply (new database) median ${median} ms of 5 (${times[*]})"
echo "release check OK: $(basename "$tarball")"
