"""Top-down road kit: lane lines (solid, broken), cars seen from above, the road
and verge background, the bicycle marking symbol.

Units: 1 = 1 ft, roughly; lines are drawn wider than real life so they read at
phone size. Traffic in the right-hand lanes goes up."""

from .colors import ASPHALT, CAR_OTHER, hexrgb, MARK_WHITE, SHOULDER, VERGE, WHITE
from .shapes import rect
from .items import A, BOX, DOT, G, RING, RJOIN, ROUND, S, SHAPE, T

LINE = 0.85          # line width (real: 4-6 in)
DASH, GAP = 7.0, 21.0          # the MUTCD 1:3 dash-to-gap ratio, shortened to fit


def solid(x, y0, y1, color, w=LINE):
    return BOX(x - w / 2, y0, w, y1 - y0, color)


def broken(x, y0, y1, color, w=LINE, dash=DASH, gap=GAP, phase=0.0):
    def draw(p):
        c = p.c
        c.set_source_rgb(*color)
        y = y0 - phase
        while y < y1:
            a, b = max(y, y0), min(y + dash, y1)
            if b > a:
                c.rectangle(x - w / 2, a, w, b - a)
            y += dash + gap
        c.fill()
    return draw


def hsolid(y, x0, x1, color, w=LINE):
    """A solid line running across the picture (the horizontal twin of solid)."""
    return BOX(x0, y - w / 2, x1 - x0, w, color)


def hbroken(y, x0, x1, color, w=LINE, dash=DASH, gap=GAP, phase=0.0):
    """A broken line running across the picture (the horizontal twin of broken)."""
    def draw(p):
        c = p.c
        c.set_source_rgb(*color)
        x = x0 - phase
        while x < x1:
            a, b = max(x, x0), min(x + dash, x1)
            if b > a:
                c.rectangle(a, y - w / 2, b - a, w)
            x += dash + gap
        c.fill()
    return draw


WINDOW = hexrgb("#27303A")


def car(cx, cy, up=True, color=CAR_OTHER, label=None):
    """Car seen from above, 6 x 14 ft, nose up (or down)."""
    items = [SHAPE(rect(-3.0, -7.0, 6.0, 14.0, 1.4), color),
             SHAPE(rect(-2.4, -3.6, 4.8, 2.6, 0.6), WINDOW),     # windshield
             SHAPE(rect(-2.3, 3.2, 4.6, 1.8, 0.5), WINDOW)]      # rear window
    if label:
        items.append(T(label, 0, 1.2, 1.6, WHITE))
    return G(items, cx, cy, rot=0 if up else 180)


def car_toward(cx, cy, heading, color=CAR_OTHER, label=None, cap=1.6):
    """Car seen from above, centred on (cx, cy), nose toward ``heading`` degrees
    clockwise from up (90 = right); its label stays upright."""
    items = [G([SHAPE(rect(-3.0, -7.0, 6.0, 14.0, 1.4), color),
                SHAPE(rect(-2.4, -3.6, 4.8, 2.6, 0.6), WINDOW),
                SHAPE(rect(-2.3, 3.2, 4.6, 1.8, 0.5), WINDOW)], cx, cy, rot=heading)]
    if label:
        items.append(T(label, cx, cy + (1.2 if heading % 180 == 0 else 0), cap, WHITE))
    return G(items)


def badge(cx, cy, text, color, r=3.2):
    """A round numbered badge (order of moves), white ring and legend."""
    return G([DOT(cx, cy, r + 0.5, WHITE), DOT(cx, cy, r, color),
              T(text, cx, cy, r * 0.95, WHITE)])


def road_bg(W, H, x0, x1, shoulder=0.0):
    items = [BOX(0, 0, W, H, VERGE), BOX(x0 - shoulder, 0, x1 - x0 + 2 * shoulder, H, SHOULDER),
             BOX(x0, 0, x1 - x0, H, ASPHALT)]
    return items


def up_arrow(x, y, s=1.0, color=MARK_WHITE):
    """Small direction-of-travel chevron drawn beside a lane (not a marking)."""
    return A("M %f %f V %f" % (x, y + 3 * s, y - 1 * s), 0.9 * s, hw=2.6 * s, hl=1.6 * s, color=color)


def bicycle_symbol(color):
    """Bicycle without rider, side view, ~12 x 7 units, centred on (0, 0)."""
    return [RING(-3.6, 1.6, 2.6, 0.7, color), RING(3.6, 1.6, 2.6, 0.7, color),
            S("M -3.6 1.6 L -1.2 -2.2 L 0.6 1.6 Z M -1.2 -2.2 L 2.8 -2.2 L 0.6 1.6 "
              "M 2.4 -3.6 L 3.6 1.6", 0.6, color, cap=ROUND, join=RJOIN),
            S("M -1.9 -2.9 H -0.4 M 1.7 -3.6 L 3.3 -4.0", 0.7, color, cap=ROUND)]

