#!/usr/bin/env bash
# Regenerates tools/hot-code.order, the order lld lays out the shipped binary's functions in
# (Makefile SHIP_FLAGS). Why: the kernel maps a binary's code in blocks of 64 KB or more around
# each page touched, so code that runs, scattered through 19 MB of Swift runtime, Foundation and
# our modules, kept nearly all of it resident (22 MiB of a 66 MiB peak). Laid side by side, it
# fills a few MB.
#
# What "runs" means here: every function callgrind sees in the shipped binary during
#   1. `permitready-bench --rss` (start-up, the long poll, the sender, 1,000 learners in quizzes;
#      ranked first, by their own instructions), then
#   2. a console session of ~1,500 seeded random taps and commands (lessons, flashcards, practice
#      tests, signs, settings, friends, progress, help: what a day of real learners reaches and
#      the load bench doesn't).
# Takes ~15 minutes (everything runs ~50x slower under valgrind). Needs valgrind (apt).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "needs valgrind: apt-get install -y valgrind"; exit 1; }
make ship
# The profiles stay in .build/hot-code (ignored by git) for a look with callgrind_annotate.
work=$PWD/.build/hot-code
rm -rf "$work" && mkdir -p "$work"
cp .build/release/permitready-bench "$work/"
# valgrind 3.19 can't read the DWARF 5 the toolchain writes; the symbol table is all it needs.
strip --strip-debug -o "$work/permitready.real" .build/release/permitready
cat > "$work/permitready" <<WRAP
#!/usr/bin/env bash
exec valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file=$work/load.%p "$work/permitready.real" "\$@"
WRAP
chmod +x "$work/permitready"
echo "1/2: the load bench under callgrind (~10 min)"
"$work/permitready-bench" --rss | tail -2
echo "2/2: a console session under callgrind (~3 min)"
python3 - "$work/taps.txt" <<'PY'
import random, sys
random.seed(7)
commands = ['/home', '/quiz', '/test', '/topics', '/review', '/cards', '/signs', '/progress',
            '/settings', '/help', '/about', 'home', '/start']
lines = ['/start', 'Ohio']
for _ in range(1500):
    r = random.random()
    if r < 0.12: lines.append(random.choice(commands))
    elif r < 0.2: lines.append(random.choice(['A', 'B', 'C', 'D', 'stop sign', 'hypnosis', 'yield']))
    else: lines.append(str(random.randint(1, 8)))
open(sys.argv[1], 'w').write('\n'.join(lines) + '\n')
PY
valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/chat.out" \
  "$work/permitready.real" chat --db "$work/chat.sqlite" --banks Banks --prompts Prompts/en --user 77 --name M \
  < "$work/taps.txt" > /dev/null 2>&1
python3 - "$work" tools/hot-code.order <<'PY'
import glob, re, sys
work, target = sys.argv[1], sys.argv[2]

def own_costs(path):
    """Each function of the binary in a callgrind file, with its own (exclusive) instructions."""
    objects, functions, costs = {}, {}, {}
    def name(table, text):
        m = re.match(r'\((\d+)\)(?: (.*))?$', text)
        if not m: return text
        if m.group(2) is not None: table[m.group(1)] = m.group(2)
        return table[m.group(1)]
    current_object, current, skip_next = None, None, False
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('ob='): current_object = name(objects, line[3:])
        elif line.startswith('fn='):
            fn = re.sub(r"'\d+$", '', name(functions, line[3:]))
            current = fn if current_object and current_object.endswith('/permitready.real') else None
            if current: costs.setdefault(current, 0)
        elif line.startswith('cob='): name(objects, line[4:])
        elif line.startswith('cfn='): name(functions, line[4:])
        elif line.startswith('calls='): skip_next = True
        elif line[:1].isdigit() or line[:1] in '+-*':
            if skip_next: skip_next = False  # a call's inclusive cost, not the caller's own
            elif current:
                parts = line.split()
                if len(parts) > 1: costs[current] += int(parts[1])
    return {n: c for n, c in costs.items() if not n.startswith('0x')}

load = {}
for path in glob.glob(f'{work}/load.*'):
    for n, c in own_costs(path).items(): load[n] = load.get(n, 0) + c
chat = own_costs(f'{work}/chat.out')
order = sorted(load, key=lambda n: (-load[n], n))
order += sorted((n for n in chat if n not in load), key=lambda n: (-chat[n], n))
with open(target, 'w') as f:
    f.write('\n'.join(order) + '\n')
print(f'{target}: {len(order)} functions ({len(load)} from the load bench, {len(order) - len(load)} more from the console)')
PY
# SwiftPM doesn't know the order file is an input of the link: take the binaries away so the next
# `make ship`/`make release` links again.
rm -f .build/release/permitready .build/release/permitready-bench
