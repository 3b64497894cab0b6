#!/usr/bin/env python3
"""Flesch-Kincaid grade of lesson card text, the same counting `permitready banks lint` uses.

Usage: reading_grade.py Banks/lessons/universal/roadSigns.json [...]   (per file and per lesson)
       reading_grade.py --text "Some sentence."                        (one piece of text)

Counting (kept simple and identical in the Swift lint, so both report the same grade):
- words: runs of letters, digits and apostrophes; a number is one word of one syllable;
- sentences: runs of . ! ? (and a card's end) - at least one per card;
- syllables: vowel groups [aeiouy]+ in the lower-cased word, minus one for a final silent "e"
  (not "le"), at least one.
Grade = 0.39 * words/sentences + 11.8 * syllables/words - 15.59.
"""
import json, re, sys

WORD = re.compile(r"[A-Za-z0-9']+")

def syllables(word: str) -> int:
    w = word.lower().strip("'")
    if not w or w[0].isdigit():
        return 1
    groups = len(re.findall(r"[aeiouy]+", w))
    if w.endswith("e") and not w.endswith("le") and groups > 1:
        groups -= 1
    return max(groups, 1)

def counts(text: str):
    words = WORD.findall(text)
    sentences = len(re.findall(r"[.!?]+", text.rstrip(" \n") + ("" if re.search(r"[.!?]\W*$", text) else ".")))
    return len(words), max(sentences, 1), sum(syllables(w) for w in words)

def grade(words: int, sentences: int, syl: int) -> float:
    if words == 0:
        return 0.0
    return 0.39 * words / sentences + 11.8 * syl / words - 15.59

def main(argv):
    if len(argv) >= 2 and argv[0] == "--text":
        print(round(grade(*counts(argv[1])), 1)); return 0
    worst = 0.0
    for path in argv:
        data = json.load(open(path))
        tw = ts = tsy = 0
        for lesson in data.get("lessons", []):
            lw = ls = lsy = 0
            for card in lesson.get("cards", []):
                w, s, sy = counts(card.get("text", ""))
                lw += w; ls += s; lsy += sy
            tw += lw; ts += ls; tsy += lsy
            print(f"  {lesson.get('id')}: grade {grade(lw, ls, lsy):.1f}")
        g = grade(tw, ts, tsy); worst = max(worst, g)
        print(f"{path}: grade {g:.1f} ({tw} words)")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
