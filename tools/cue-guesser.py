#!/usr/bin/env python3
"""A guesser that knows no traffic law: how far do surface cues alone get on the question banks?

Usage: tools/cue-guesser.py [--dir Banks] [--flag universal|state|all] [--json out.json]

For every multiple-choice question (kind multipleChoice, 3-4 options; true/false and fill-in are
left out) each option gets surface features that need no driving knowledge:

  length      length z-score within the question, strictly longest, strictly shortest
  overlap     content words shared with the question text (centred within the question)
  hedge       "usually", "may", "can", "often", "generally", "some", "most", "sometimes", ...
  absolute    "only", "never", "always", "all", "none", "every", "any", "must", "no one", ...
  all-above   "all of the above", "none of the above", "both ..." (the README bans them)
  safe        "safe", "safely", "carefully", "caution", "slow", "slow down", "reduce", ...
  reason      a justification attached: "; ...", "because", "so ...", "to avoid", "to let", ...
  number      among options that carry a number: the middle value, or an extreme (min / max)
  odd length  the option whose length stands furthest from the others'
  odd format  the one option that differs in format (the only one with a digit, a comma, a
              semicolon, a bracket, another first word, ...)
  convergence how much the option shares words with the other options (z-score)

A conditional-logit model (softmax over the options of one question) weighs the features. The
weights are fitted leave-one-file-out: to predict Banks/x.json the model is fitted on every other
file (universal and state), so a file's score is never flattered by fitting itself. A second,
"same-scope" guesser is fitted only on the other files of the same kind (the other universal files
for a universal one), so it learns habits that one set of writers shares; it is the harder one to
beat, and --flag lists what it gets right. The guess is
the option with the highest score (ties split the credit). "Share right" is compared with the
chance rate, the mean of 1/options.

Each cue is also scored alone, in the direction test-wise lore says (pick the longest, the one
sharing most words with the stem, a hedged one, one without an absolute, the safe-sounding one, the
middle number, the odd one out, the one most like the others, the one with a reason): where a cue
picks some but not all options, its hit rate is the chance the key is among those it picks
(split evenly), next to the chance rate on the same questions.

--flag lists the questions whose key the fitted guesser picks, worst files first, so wrong
options can be rewritten there. Needs numpy.
"""
import argparse
import glob
import json
import math
import os
import re
import sys
from collections import defaultdict

import numpy as np

STOP = set("""a an the of to in on at for by with from and or but is are be been being was were it its
this that these those you your yours i me my we our they their them he she his her as if then than
so do does did not no into over under up down out off about before after while when where what which
who whom how why there here can may must will would should could just more most less very too also
only any all each every some one""".split())

HEDGE = re.compile(r"\b(usually|may|might|can|could|often|generally|typically|sometimes|some|most|"
                   r"likely|normally|probably|mostly|in most|unless)\b", re.I)
ABSOLUTE = re.compile(r"\b(only|never|always|all|none|every|everyone|everything|any|anyone|anything|"
                      r"no one|nothing|nobody|must|completely|entirely|totally|at all times|under no)\b", re.I)
ALLABOVE = re.compile(r"\b(all of the above|none of the above|both of the above|both [a-d] and [a-d]|"
                      r"all of these|none of these)\b", re.I)
SAFE = re.compile(r"\b(safe|safely|safer|safest|safety|careful|carefully|caution|cautious|cautiously|"
                  r"slow|slowly|slower|slow down|reduce|reduced|prepared|ready|alert|watch|check)\b", re.I)
REASON = re.compile(r";|\bbecause\b|\bsince\b|\bso that\b|, so\b|\bso (?:you|they|it|the|that|others|other|"
                    r"drivers|no one)\b|\bto (?:avoid|keep|let|give|see|warn|prevent|protect|make sure)\b", re.I)
NUMWORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
            "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "hundred": 100, "half": 0.5,
            "twice": 2, "double": 2, "triple": 3}
NUM = re.compile(r"(\d+(?:[.,]\d+)?)(½)?|\b(" + "|".join(NUMWORDS) + r")\b", re.I)
WORD = re.compile(r"[a-z0-9']+")

FEATURES = ["len_z", "longest", "shortest", "overlap", "hedge", "absolute", "allabove", "safe",
            "reason", "num_middle", "num_extreme", "odd_len", "odd_format", "convergence"]

# Individual cues: name, description, function(question features) -> set of option indexes picked.
CUES = [
    ("longest", "pick the strictly longest option"),
    ("shortest", "pick the strictly shortest option"),
    ("overlap", "pick the option sharing most words with the question"),
    ("hedge", "pick an option with a hedge (usually, may, can, ...)"),
    ("no-absolute", "pick an option without an absolute (only, never, always, all, ...)"),
    ("all-above", "pick 'all/none of the above' or 'both'"),
    ("safe", "pick an option with a safe word (safe, carefully, slow, ...)"),
    ("reason", "pick an option that gives a reason (';', because, so, to avoid, ...)"),
    ("middle-number", "pick the middle value among numeric options"),
    ("odd-length", "pick the option whose length is furthest from the others'"),
    ("odd-format", "pick the one option whose format differs"),
    ("convergence", "pick the option most like the other options"),
]


def stem(w):
    for suf in ("ing", "ed", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            return w[: -len(suf)]
    return w


def content(text):
    return {stem(w) for w in WORD.findall(text.lower()) if w not in STOP}


def number(text):
    m = NUM.search(text)
    if not m:
        return None
    if m.group(1):
        v = float(m.group(1).replace(",", ""))
        return v + (0.5 if m.group(2) else 0)
    return float(NUMWORDS[m.group(3).lower()])


def fmt(text):
    """Format signature: one value per format dimension."""
    words = text.split()
    return [
        bool(re.search(r"\d", text)),
        "," in text,
        ";" in text,
        "(" in text,
        text.rstrip().endswith("."),
        (words[0].lower() if words else ""),
        text[:1].isupper(),
    ]


def zscore(xs):
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))
    return [0.0 if sd == 0 else (x - m) / sd for x in xs]


def argmax_set(xs, strict=True):
    m = max(xs)
    s = {i for i, x in enumerate(xs) if x == m}
    return s


def featurize(q):
    ans = q["answers"]
    n = len(ans)
    lens = [len(a) for a in ans]
    stemc = content(q["questionText"])
    words = [content(a) for a in ans]
    f = {k: [0.0] * n for k in FEATURES}
    picks = {}

    f["len_z"] = zscore(lens)
    mx, mn = max(lens), min(lens)
    longest = {i for i in range(n) if lens[i] == mx} if lens.count(mx) == 1 else set()
    shortest = {i for i in range(n) if lens[i] == mn} if lens.count(mn) == 1 else set()
    for i in longest:
        f["longest"][i] = 1.0
    for i in shortest:
        f["shortest"][i] = 1.0
    picks["longest"], picks["shortest"] = longest, shortest

    ov = [len(w & stemc) for w in words]
    mean_ov = sum(ov) / n
    f["overlap"] = [o - mean_ov for o in ov]
    picks["overlap"] = argmax_set(ov)

    hedge = [1.0 if HEDGE.search(a) else 0.0 for a in ans]
    absol = [1.0 if ABSOLUTE.search(a) else 0.0 for a in ans]
    allab = [1.0 if ALLABOVE.search(a) else 0.0 for a in ans]
    safe = [1.0 if SAFE.search(a) else 0.0 for a in ans]
    reason = [1.0 if REASON.search(a) else 0.0 for a in ans]
    f["hedge"], f["absolute"], f["allabove"], f["safe"], f["reason"] = hedge, absol, allab, safe, reason
    picks["hedge"] = {i for i in range(n) if hedge[i]}
    picks["no-absolute"] = {i for i in range(n) if not absol[i]}
    picks["all-above"] = {i for i in range(n) if allab[i]}
    picks["safe"] = {i for i in range(n) if safe[i]}
    picks["reason"] = {i for i in range(n) if reason[i]}

    nums = [number(a) for a in ans]
    have = [i for i in range(n) if nums[i] is not None]
    picks["middle-number"] = set()
    if len(have) >= 3:
        vals = [nums[i] for i in have]
        lo, hi = min(vals), max(vals)
        if lo != hi:
            mid = {i for i in have if lo < nums[i] < hi}
            for i in have:
                if i in mid:
                    f["num_middle"][i] = 1.0
                else:
                    f["num_extreme"][i] = 1.0
            picks["middle-number"] = mid

    dev = []
    for i in range(n):
        others = [lens[j] for j in range(n) if j != i]
        dev.append(abs(lens[i] - sum(others) / len(others)) / max(1.0, sum(lens) / n))
    odd = argmax_set(dev)
    if len(odd) == 1:
        for i in odd:
            f["odd_len"][i] = 1.0
        picks["odd-length"] = odd
    else:
        picks["odd-length"] = set()

    sigs = [fmt(a) for a in ans]
    oddf = [0.0] * n
    for d in range(len(sigs[0])):
        vals = [s[d] for s in sigs]
        for i in range(n):
            rest = [vals[j] for j in range(n) if j != i]
            if len(set(rest)) == 1 and rest[0] != vals[i]:
                oddf[i] += 1.0
    f["odd_format"] = oddf
    picks["odd-format"] = {i for i in range(n) if oddf[i] > 0}

    conv = []
    for i in range(n):
        sims = []
        for j in range(n):
            if j == i:
                continue
            u = words[i] | words[j]
            sims.append(len(words[i] & words[j]) / len(u) if u else 0.0)
        conv.append(sum(sims) / len(sims))
    f["convergence"] = zscore(conv)
    picks["convergence"] = argmax_set(conv) if len(set(conv)) > 1 else set()

    X = [[f[k][i] for k in FEATURES] for i in range(n)]
    return X, picks


def load(bank_dir):
    items = []  # dicts: file, scope, id, n, key, X, picks
    files = sorted(glob.glob(os.path.join(bank_dir, "universal", "*.json"))) + sorted(
        glob.glob(os.path.join(bank_dir, "states", "*.json")))
    for path in files:
        rel = os.path.relpath(path, bank_dir)
        scope = "universal" if rel.startswith("universal") else "state"
        with open(path) as fh:
            data = json.load(fh)
        for q in data["questions"]:
            if q.get("kind", "multipleChoice") != "multipleChoice":
                continue
            X, picks = featurize(q)
            items.append(dict(file=rel, scope=scope, id=q["id"], n=len(q["answers"]),
                              key=q["correctAnswerIndex"], X=X, picks=picks, q=q))
    return items


def tensors(items):
    F = len(FEATURES)
    X = np.zeros((len(items), 4, F))
    M = np.zeros((len(items), 4), dtype=bool)
    y = np.zeros(len(items), dtype=int)
    for k, it in enumerate(items):
        X[k, : it["n"]] = it["X"]
        M[k, : it["n"]] = True
        y[k] = it["key"]
    return X, M, y


def fit(X, M, y, l2=1.0, iters=30):
    """Conditional logit by Newton's method with an L2 penalty."""
    Q, _, F = X.shape
    w = np.zeros(F)
    idx = np.arange(Q)
    for _ in range(iters):
        s = np.where(M, X @ w, -np.inf)
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s)
        p /= p.sum(axis=1, keepdims=True)
        ex = np.einsum("qj,qjf->qf", p, X)
        g = (X[idx, y] - ex).sum(axis=0) - l2 * w
        d = X - ex[:, None, :]
        H = -np.einsum("qj,qjf,qjg->fg", p, d, d) - l2 * np.eye(F)
        step = np.linalg.solve(H, g)
        w = w - step
        if np.abs(step).max() < 1e-8:
            break
    return w


def credit(scores, n, key):
    """Expected correct for argmax with ties split."""
    s = scores[:n]
    best = np.flatnonzero(np.isclose(s, s.max()))
    return (1.0 / len(best)) if key in best else 0.0, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default="Banks")
    ap.add_argument("--flag", choices=["universal", "state", "all"], help="list questions whose key the guesser picks")
    ap.add_argument("--json", help="write per-question results here")
    args = ap.parse_args()

    items = load(args.dir)
    X, M, y = tensors(items)
    files = sorted({it["file"] for it in items})
    file_of = np.array([it["file"] for it in items])

    scope_of = np.array([it["scope"] for it in items])

    def lofo(same_scope):
        """Leave-one-file-out: fit on every other file (or every other file of the same scope)."""
        cred, pk = np.zeros(len(items)), np.zeros(len(items))
        for fname in files:
            test = file_of == fname
            train = ~test & (scope_of == scope_of[test][0]) if same_scope else ~test
            w = fit(X[train], M[train], y[train])
            for k in np.flatnonzero(test):
                it = items[k]
                sc = X[k, : it["n"]] @ w
                cred[k], _ = credit(sc, it["n"], it["key"])
                e = np.exp(sc - sc.max())
                pk[k] = e[it["key"]] / e.sum()
        return cred, pk

    pred_credit, pkey = lofo(same_scope=False)
    scope_credit, scope_pkey = lofo(same_scope=True)
    w_all = fit(X, M, y)

    def summary(mask):
        sel = [k for k in range(len(items)) if mask(items[k])]
        if not sel:
            return 0, 0, 0, 0, 0
        chance = np.mean([1.0 / items[k]["n"] for k in sel])
        lo = np.mean([(1.0 / len(items[k]["picks"]["longest"]) if items[k]["key"] in items[k]["picks"]["longest"] else 0.0)
                      if items[k]["picks"]["longest"] else 1.0 / items[k]["n"] for k in sel])
        return len(sel), pred_credit[sel].mean(), scope_credit[sel].mean(), chance, lo

    print("Surface-cue guesser (leave-one-file-out conditional logit), multiple-choice questions only\n")
    print(f"{'':12} {'questions':>9} {'cue guesser':>12} {'same-scope':>11} {'longest':>8} {'chance':>7}")
    for scope in ("universal", "state"):
        n, right, sright, chance, lo = summary(lambda it, s=scope: it["scope"] == s)
        print(f"{scope:12} {n:9d} {right*100:11.1f}% {sright*100:10.1f}% {lo*100:7.1f}% {chance*100:6.1f}%")
    print("  (cue guesser: weights fitted on all other files; same-scope: fitted only on the other files of the same")
    print("   kind, universal or state, which learns that kind's own habits; longest: always pick the strictly longest")
    print("   option, a random pick where none is.)\n")

    print("Each cue alone (where it picks some but not all options): questions it applies to, hit rate, chance there")
    print(f"{'cue':15} {'universal':>28}   {'state':>28}   what it does")
    for name, desc in CUES:
        cols = []
        for scope in ("universal", "state"):
            hits, ch, cnt = 0.0, 0.0, 0
            for it in items:
                if it["scope"] != scope:
                    continue
                P = it["picks"].get(name, set())
                if not P or len(P) == it["n"]:
                    continue
                cnt += 1
                hits += (1.0 / len(P)) if it["key"] in P else 0.0
                ch += 1.0 / it["n"]
            cols.append(f"{cnt:4d} q {hits/cnt*100 if cnt else 0:5.1f}% (chance {ch/cnt*100 if cnt else 0:4.1f}%)")
        print(f"{name:15} {cols[0]:>28}   {cols[1]:>28}   {desc}")

    print("\nWeights fitted on all files (positive: the key tends to have it):")
    print("  " + ", ".join(f"{k} {v:+.2f}" for k, v in zip(FEATURES, w_all)))

    print("\nPer universal file: cue guesser right, same-scope guesser right, of questions (chance)")
    for fname in files:
        if not fname.startswith("universal"):
            continue
        sel = np.flatnonzero(file_of == fname)
        ch = np.mean([1.0 / items[k]["n"] for k in sel])
        print(f"  {fname:36} {pred_credit[sel].mean()*100:5.1f}%  same-scope {scope_credit[sel].mean()*100:5.1f}%  of {len(sel):3d}  (chance {ch*100:4.1f}%)")
    sel = np.flatnonzero(np.array([it["scope"] == "state" for it in items]))
    worst = sorted(((pred_credit[file_of == f].mean(), f) for f in files if f.startswith("states")), reverse=True)[:5]
    print("Worst state files: " + ", ".join(f"{f} {r*100:.0f}%" for r, f in worst))

    if args.flag:
        print(f"\nQuestions whose key the same-scope guesser picks ({args.flag}), worst files first; p = its probability of the key")
        rate = {f: scope_credit[file_of == f].mean() for f in files}
        flagged = [k for k in range(len(items)) if scope_credit[k] > 0
                   and (args.flag == "all" or items[k]["scope"] == args.flag)]
        flagged.sort(key=lambda k: (-rate[items[k]["file"]], items[k]["file"], -scope_pkey[k]))
        for k in flagged:
            it = items[k]
            cues = [c for c, _ in CUES if it["key"] in it["picks"].get(c, set()) and 0 < len(it["picks"][c]) < it["n"]]
            print(f"  {it['file']:34} {it['id']:14} p={scope_pkey[k]:.2f}  cues: {', '.join(cues)}")

    if args.json:
        out = [dict(file=it["file"], id=it["id"], right=float(pred_credit[k]), pkey=float(pkey[k]),
                    same_scope_right=float(scope_credit[k]), same_scope_pkey=float(scope_pkey[k]))
               for k, it in enumerate(items)]
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
