#!/usr/bin/env python3
"""Reference vectors for the Swift FSRS port (Sources/TutorCore/FSRS.swift).

Replays review histories through py-fsrs, the reference FSRS-6 implementation, and writes
Tests/TutorCoreTests/Fixtures/fsrs-vectors.json, which Tests/TutorCoreTests/FSRSTests.swift replays.

Run by hand from the repository root, after any change to the histories or a new py-fsrs:

    pip install 'fsrs>=6,<7'
    python3 tools/fsrs/make_vectors.py

The output is deterministic (fixed start times, a seeded random.Random for the generated
histories), so re-running with the same fsrs version gives the same file.

"histories" run with fuzzing off. "fuzzed_histories" run with fuzzing on, with py-fsrs's
`random()` replaced by the same SplitMix64 as Sources/TutorCore/SeededRandom.swift
(u = 1 - unit(), in [0, 1)), so the Swift port must reproduce those draws exactly too.

Each review records:
  rating, time                 the review (epoch seconds)
  retrievability_before        R of the card before the review, at the review time (what FSRS uses)
  card                         the card after the review: state, step, stability, difficulty,
                               due and last_review (epoch seconds)
  retrievability_at_due        R of the reviewed card at its new due time
"""

import json
import math
import os
import random as pyrandom
import sys
from datetime import datetime, timedelta, timezone
from importlib.metadata import version

import fsrs
import fsrs.scheduler as fsrs_scheduler
from fsrs import Card, Rating, Scheduler, State

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "Tests", "TutorCoreTests", "Fixtures", "fsrs-vectors.json")

MASK = (1 << 64) - 1
DAY = 86400


class SplitMix64:
    """Sources/TutorCore/SeededRandom.swift, bit for bit."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def unit(self):  # (0, 1]
        return float((self.next() >> 11) + 1) / float(1 << 53)


def epoch(dt):
    s = (dt - datetime(1970, 1, 1, tzinfo=timezone.utc)) / timedelta(microseconds=1)
    return int(s // 1_000_000) if s % 1_000_000 == 0 else s / 1_000_000


def at(seconds):
    return datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=seconds)


def make_scheduler(cfg):
    return Scheduler(
        parameters=cfg.get("parameters", fsrs_scheduler.DEFAULT_PARAMETERS),
        desired_retention=cfg.get("desired_retention", 0.9),
        learning_steps=[timedelta(seconds=s) for s in cfg.get("learning_steps", [60, 600])],
        relearning_steps=[timedelta(seconds=s) for s in cfg.get("relearning_steps", [600])],
        maximum_interval=cfg.get("maximum_interval", 36500),
        enable_fuzzing=cfg.get("enable_fuzzing", False),
    )


def next_time(card, start, when):
    """When the next review happens:
    ("due", s)    s seconds after the card's due time (negative: early)
    ("after", s)  s seconds after the last review (or the start)
    ("frac", f)   a fraction f of the way from the last review to due (>1: late), whole seconds
    """
    kind, x = when
    last = card.last_review or start
    if kind == "due":
        return card.due + timedelta(seconds=x)
    if kind == "after":
        return last + timedelta(seconds=x)
    if kind == "frac":
        span = (card.due - last).total_seconds()
        return last + timedelta(seconds=round(span * x))
    raise ValueError(kind)


def run(name, steps, cfg=None, start=1_767_272_345, seed=None):
    cfg = dict(cfg or {})
    if seed is not None:
        cfg["enable_fuzzing"] = True
        rng = SplitMix64(seed)
        fsrs_scheduler.random = lambda: 1.0 - rng.unit()
    scheduler = make_scheduler(cfg)
    start_dt = at(start)
    card = Card(card_id=1, due=start_dt)
    reviews = []
    for rating, when in steps:
        t = next_time(card, start_dt, when)
        r_before = scheduler.get_card_retrievability(card, current_datetime=t)
        card, _ = scheduler.review_card(card, Rating(rating), review_datetime=t)
        reviews.append({
            "rating": rating,
            "time": epoch(t),
            "retrievability_before": float(r_before),
            "card": {
                "state": int(card.state),
                "step": card.step,
                "stability": card.stability,
                "difficulty": card.difficulty,
                "due": epoch(card.due),
                "last_review": epoch(card.last_review),
            },
            "retrievability_at_due": scheduler.get_card_retrievability(card, current_datetime=card.due),
        })
    sched = scheduler.to_dict()
    sched["learning_steps"] = [s.total_seconds() for s in scheduler.learning_steps]
    sched["relearning_steps"] = [s.total_seconds() for s in scheduler.relearning_steps]
    out = {"name": name, "scheduler": sched, "start": start, "reviews": reviews}
    if seed is not None:
        out["seed"] = seed
        fsrs_scheduler.random = pyrandom.random
    return out


G = lambda r, s=0: (r, ("due", s))  # at due (+ s seconds)
A = lambda r, s: (r, ("after", s))  # s seconds after the last review
F = lambda r, f: (r, ("frac", f))  # fraction of the scheduled interval

YEAR = 365 * DAY


def handmade():
    h = []
    h.append(run("new card, each rating once", [G(1)]))
    h.append(run("first rating hard", [G(2), G(3), G(3), G(3)]))
    h.append(run("first rating good", [G(3), G(3), G(3), G(3), G(3)]))
    h.append(run("first rating easy", [G(4), G(4), G(4), G(4)]))
    h.append(run("learning: again resets the step", [G(3), G(1), G(2), G(3), G(3), G(3)]))
    h.append(run("learning: hard on step 1 keeps step", [G(3), G(2), G(2), G(3)]))
    h.append(run("learning to review to relearning and back",
                 [G(3), G(3), G(3), G(3), G(1), G(2), G(3), G(3), G(1), G(1), G(4), G(3)]))
    h.append(run("relearning: hard and easy", [G(4), G(3), G(1), G(2), G(4), G(3)]))
    h.append(run("same-day reviews (0 s, 1 min, 23 h 59 m)",
                 [A(3, 0), A(3, 0), A(2, 60), A(1, 60), A(4, DAY - 60), A(3, DAY), A(3, DAY - 1), A(1, 5)]))
    h.append(run("exactly one day vs one second short", [G(4), A(3, DAY), A(3, DAY - 1), A(2, DAY + 1)]))
    h.append(run("early reviews (half the interval)",
                 [G(3), G(3), F(3, 0.5), F(3, 0.5), F(2, 0.3), F(4, 0.1), F(1, 0.5), G(3)]))
    h.append(run("late reviews (years)",
                 [G(3), G(3), A(3, 2 * YEAR), A(3, 3 * YEAR + 12345), A(1, 5 * YEAR), G(3), A(4, YEAR)]))
    h.append(run("lapse after years", [G(4), A(4, 30 * DAY), A(4, 400 * DAY), A(1, 4 * YEAR), G(1), G(3)]))
    h.append(run("easy at due until the maximum interval", [G(4)] + [G(4)] * 12))
    h.append(run("easy, years late, until the maximum interval",
                 [G(4), A(4, YEAR), A(4, 5 * YEAR), A(4, 20 * YEAR), A(4, 40 * YEAR), A(4, 60 * YEAR), G(3)]))
    h.append(run("again forever", [G(1)] * 4 + [A(1, DAY)] * 4 + [A(1, 10 * DAY)] * 3))
    h.append(run("hard forever", [G(2)] * 3 + [G(2)] * 8))
    h.append(run("difficulty floor (easy many times late)", [G(4)] + [F(4, 3.0)] * 10))
    h.append(run("difficulty ceiling (again then hard)",
                 [G(1), A(1, DAY), A(1, DAY), A(2, 2 * DAY), A(1, 3 * DAY), A(2, 3 * DAY), A(1, 3 * DAY), G(2), G(2)]))
    h.append(run("start at midnight UTC, review at 23:59:59", [G(3), A(3, DAY - 1), A(3, DAY), G(3)],
                 start=1_767_225_600))
    # Other scheduler settings exercise the remaining branches.
    h.append(run("no learning steps", [G(1), G(3), G(1), G(2), G(3)], cfg={"learning_steps": []}))
    h.append(run("no relearning steps: again stays in review", [G(4), G(3), G(1), G(1), G(3)],
                 cfg={"relearning_steps": []}))
    h.append(run("one learning step (hard = 1.5x)", [G(2), G(2), G(3), G(1), G(2), G(2), G(3)],
                 cfg={"learning_steps": [45], "relearning_steps": [300, 3600]}))
    h.append(run("three learning steps, two relearning steps",
                 [G(3), G(2), G(3), G(1), G(3), G(3), G(3), G(3), G(1), G(2), G(3), G(1), G(3), G(3)],
                 cfg={"learning_steps": [60, 600, 3600], "relearning_steps": [300, 3600]}))
    h.append(run("desired retention 0.7", [G(3)] * 12, cfg={"desired_retention": 0.7}))
    h.append(run("desired retention 0.97", [G(3)] * 10 + [G(1), G(3), G(3)], cfg={"desired_retention": 0.97}))
    h.append(run("maximum interval 180 days", [G(4)] * 8 + [A(3, 3 * YEAR), G(1), G(3), G(4)],
                 cfg={"maximum_interval": 180}))
    custom = [0.4, 1.5, 3.0, 10.0, 5.0, 1.0, 2.5, 0.01, 1.5, 0.2, 1.0, 1.8, 0.1, 0.3, 1.2, 0.5, 2.0, 0.6, 0.2, 0.1, 0.3]
    h.append(run("custom weights", [G(3), G(3), G(3), A(3, 40 * DAY), G(1), G(3), G(3), A(2, 3 * YEAR), G(4)],
                 cfg={"parameters": custom}))
    return h


def generated(count, seed):
    rng = pyrandom.Random(seed)
    configs = [{}, {}, {}, {"desired_retention": 0.8}, {"learning_steps": [60, 600, 1800]},
               {"maximum_interval": 365}, {"relearning_steps": [600, 3600]}]
    out = []
    for i in range(count):
        steps = []
        for _ in range(rng.randint(5, 25)):
            rating = rng.choices([1, 2, 3, 4], weights=[2, 2, 5, 1])[0]
            kind = rng.random()
            if kind < 0.45:
                when = ("due", rng.choice([0, 0, 0, rng.randint(-3600, 3600), rng.randint(0, 3 * DAY)]))
            elif kind < 0.8:
                when = ("frac", round(rng.uniform(0.2, 3.0), 3))
            elif kind < 0.9:
                when = ("after", rng.randint(0, DAY))
            else:
                when = ("after", rng.randint(DAY, 6 * YEAR))
            steps.append((rating, when))
        start = 1_767_225_600 + rng.randint(0, 400 * DAY)
        out.append(run(f"generated {i}", steps, cfg=configs[i % len(configs)], start=start))
    return out


def fuzzed():
    out = []
    for i, seed in enumerate([1, 42, 0xDEADBEEF, 2025, 7]):
        rng = pyrandom.Random(seed)
        steps = [G(3), G(3)]
        for _ in range(15):
            steps.append((rng.choices([1, 2, 3, 4], weights=[1, 2, 6, 2])[0],
                          rng.choice([("due", 0), ("frac", 1.5), ("frac", 0.7), ("after", rng.randint(DAY, YEAR))])))
        cfg = {"maximum_interval": 400} if i == 4 else {}
        out.append(run(f"fuzzed seed {seed}", steps, cfg=cfg, seed=seed))
    out.append(run("fuzzed, easy to the maximum interval", [G(4)] * 14, seed=99))
    return out


def dump(doc):
    """JSON with one line per review, so diffs between fsrs versions stay readable."""
    j = lambda v: json.dumps(v, allow_nan=False)

    def history(h):
        head = ", ".join(f"{j(k)}: {j(v)}" for k, v in h.items() if k != "reviews")
        rows = ",\n".join(f"    {j(r)}" for r in h["reviews"])
        return f"  {{{head}, \"reviews\": [\n{rows}\n  ]}}"

    meta = "".join(f" {j(k)}: {j(v)},\n" for k, v in doc.items() if not k.endswith("histories"))
    parts = [f" {j(k)}: [\n" + ",\n".join(history(h) for h in doc[k]) + "\n ]"
             for k in ("histories", "fuzzed_histories")]
    text = "{\n" + meta + ",\n".join(parts) + "\n}\n"
    assert json.loads(text) == json.loads(json.dumps(doc))
    return text


def main():
    histories = handmade() + generated(36, seed=20260101)
    fuzz = fuzzed()

    # Check the histories cover what they claim to.
    reviews = [r for h in histories for r in h["reviews"]]
    assert {r["rating"] for r in reviews} == {1, 2, 3, 4}
    assert {r["card"]["state"] for r in reviews} == {1, 2, 3}
    for h in histories + fuzz:
        cap = h["scheduler"]["maximum_interval"]
        for r in h["reviews"]:
            assert r["card"]["due"] - r["time"] <= cap * DAY, h["name"]
    hit = [h["name"] for h in histories
           if any(r["card"]["state"] == 2 and r["card"]["due"] - r["time"] == h["scheduler"]["maximum_interval"] * DAY
                  for r in h["reviews"])]
    assert any(n.startswith("easy") for n in hit), hit

    doc = {
        "generator": "tools/fsrs/make_vectors.py",
        "fsrs_version": version("fsrs"),
        "python_version": sys.version.split()[0],
        "histories": histories,
        "fuzzed_histories": fuzz,
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(dump(doc))
    n = sum(len(h["reviews"]) for h in histories + fuzz)
    print(f"fsrs {doc['fsrs_version']}: {len(histories)} histories + {len(fuzz)} fuzzed, {n} reviews -> {OUT}")
    print("hit the maximum interval:", hit)


if __name__ == "__main__":
    main()
