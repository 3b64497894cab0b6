"""Sign families: the faces and assemblies many signs share (warning diamond,
white regulatory rectangle, word signs, plaques stacked under a sign, STOP and
YIELD faces, the railroad crossbuck, route-shield outlines). Each returns
``(width, height, items)`` in inches or a list of items."""

import math

from .colors import BLACK, RED, WHITE, YELLOW
from .items import A, FACE, G, LINES, PROHIBIT, SHAPE, T, _fill
from .shapes import Outline, diamond, octagon, rect, triangle_down

def warning(*items, bg=YELLOW, size=30):
    """Diamond warning sign (yellow; orange for work zones)."""
    return size, size, [FACE(diamond(size, r=size * 0.06), bg, BLACK,
                             margin=size * 0.017, bw=size * 0.027)] + list(items)


def dia_w(y, cap, size=30):
    """Usable text width in a diamond of ``size`` for a line centred at y."""
    half = size / 2 - max(abs(y - cap / 2 - size / 2), abs(y + cap / 2 - size / 2))
    return 2 * (half - size * 0.085)


def dia_lines(texts, cap, dy, size=30):
    y0 = size / 2 - dy * (len(texts) - 1) / 2
    return [T(s, size / 2, y0 + k * dy, cap, maxw=dia_w(y0 + k * dy, cap, size))
            for k, s in enumerate(texts)]


def regulatory(w, h, *items):
    """White rectangle with black border."""
    return w, h, [FACE(rect(0, 0, w, h, 1.5), WHITE, BLACK, 0.5, 0.75)] + list(items)


def word_regulatory(*texts, w=24, h=30, cap=3.6):
    dy = min(cap * 1.75, (h - 6) / max(len(texts), 1))
    y0 = h / 2 - dy * (len(texts) - 1) / 2
    return regulatory(w, h, *LINES(texts, w / 2, y0, dy, cap, maxw=w - 4))


def word_sign(*texts, w=24, h=30, cap=3.6, bg=WHITE, ink=BLACK, border=None, r=1.5,
              dy=None):
    """Rectangle with centred lines of text; ``border`` defaults to the ink."""
    dy = dy or min(cap * 1.75, (h - 6) / max(len(texts), 1))
    y0 = h / 2 - dy * (len(texts) - 1) / 2
    bw = 0.75 if min(w, h) >= 18 else 0.5
    return w, h, ([FACE(rect(0, 0, w, h, r), bg, border or ink, bw * 2 / 3, bw, ink=ink)]
                  + LINES(texts, w / 2, y0, dy, cap, maxw=w - 4))


def stack(*specs, gap=0.8):
    """Signs mounted one above the other (a sign and its plaques), centred."""
    W = max(w for w, _, _ in specs)
    items, y = [], 0.0
    for w, h, its in specs:
        items.append(G(its, (W - w) / 2, y))
        y += h + gap
    return W, y - gap, items


def speed_limit(number, w=24, h=30):
    """R2-1 Speed Limit sign."""
    return regulatory(w, h, T("SPEED", w / 2, 5.6, 3.6, maxw=w - 5),
                      T("LIMIT", w / 2, 10.8, 3.6, maxw=w - 5),
                      T(number, w / 2, 20.4, 9.6, maxw=w - 7))


def arrow_plaque(bg):
    """W16-7P: diagonal arrow pointing down to the crossing."""
    return 24, 12, [FACE(rect(0, 0, 24, 12, 1.0), bg, BLACK, 0.35, 0.6),
                    A("M 16.0 2.6 L 10.2 7.6", 2.0, hw=5.2, hl=3.0)]


def prohibition(*symbol, size=24):
    return regulatory(size, size, *symbol, *PROHIBIT(size / 2, size / 2, size * 0.43, size * 0.085))


def stop_face(x=0.0, y=0.0, w=30.0):
    k = w / 30
    return [FACE(octagon(w, x, y, 0.9 * k), RED, WHITE, 0.5 * k, 0.75 * k, ink=WHITE),
            T("STOP", x + w / 2, y + w / 2, 10 * k, WHITE, maxw=23.5 * k)]


def stop_all_way_face():
    """STOP (R1-1) with the ALL WAY plaque (R1-3P) under it: 30 x 37.5 in."""
    return stop_face() + [
        FACE(rect(6, 31.5, 18, 6, 0.75), RED, WHITE, 0.3, 0.5, ink=WHITE),
        T("ALL WAY", 15, 34.5, 3.0, WHITE, maxw=15)]


def yield_face():
    """R1-2 YIELD: red triangle, white centre, 36 in wide."""
    return [SHAPE(triangle_down(36, r=1.8), RED),
            SHAPE(triangle_down(36, r=1.8), WHITE, inset=4.4),
            T("YIELD", 18, 9.0, 3.7, RED, maxw=13.5)]


def crossbuck(cx, cy, L=48.0, W=9.0):
    """R15-1: two white blades at right angles, RAILROAD / CROSSING."""
    items = []
    for angle, words in ((45, ("RAIL", "ROAD")), (-45, ("CROSS", "ING"))):
        blade = rect(-L / 2, -W / 2, L, W, 0.75)
        items.append(G([FACE(blade, WHITE, BLACK, 0.3, 0.6),
                        T(words[0], -L / 4 - 1.2, 0, 4.4, BLACK, maxw=L / 2 - 8.5),
                        T(words[1], L / 4 + 1.2, 0, 4.4, BLACK, maxw=L / 2 - 8.5)],
                       cx, cy, rot=angle))
    return items


XBUCK = (48 + 9) / math.sqrt(2)       # crossbuck bounding square

INTERSTATE = ("M 1.2 2.0 Q 12 5.2 22.8 2.0 C 24.6 9.5 22.8 17.5 12 23.6 "
              "C 1.2 17.5 -0.6 9.5 1.2 2.0 Z")
US_SHIELD = ("M 3.2 2.4 H 20.8 C 20.8 3.9 21.6 4.7 22.9 4.7 C 22.7 9.0 21.2 12.0 21.7 15.4 "
             "C 22.2 19.0 17.0 20.6 12.0 22.4 C 7.0 20.6 1.8 19.0 2.3 15.4 "
             "C 2.8 12.0 1.3 9.0 1.1 4.7 C 2.4 4.7 3.2 3.9 3.2 2.4 Z")


def interstate_red_band(p):
    """Clip the red top band of the Interstate shield (inset 1.1 in)."""
    c = p.c
    c.save()
    Outline(INTERSTATE, 12, 12.8, 22).trace(c, 1.1)
    c.clip()
    c.rectangle(0, 0, 24, 8.2)
    _fill(p, RED)
    c.restore()


def yellow_plaque(*texts, w=24, h=10, cap=3.6, bg=YELLOW):
    """Word plaque mounted under a warning sign (e.g. 8% GRADE)."""
    return word_sign(*texts, w=w, h=h, cap=cap, bg=bg, r=1.0)
