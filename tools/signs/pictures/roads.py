"""Top-down road kit: lane lines (solid, broken), cars seen from above, the road
and verge background, the bicycle marking symbol.

Units: 1 = 1 ft, roughly; lines are drawn wider than real life so they read at
phone size. Traffic in the right-hand lanes goes up."""

from .colors import ASPHALT, CAR_OTHER, hexrgb, MARK_WHITE, SHOULDER, VERGE, WHITE
from .shapes import rect
from .items import A, BOX, G, RING, RJOIN, ROUND, S, SHAPE, T

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


def car(cx, cy, up=True, color=CAR_OTHER, label=None):
    """Car seen from above, 6 x 14 ft, nose up (or down)."""
    items = [SHAPE(rect(-3.0, -7.0, 6.0, 14.0, 1.4), color),
             SHAPE(rect(-2.4, -3.6, 4.8, 2.6, 0.6), hexrgb("#27303A")),     # windshield
             SHAPE(rect(-2.3, 3.2, 4.6, 1.8, 0.5), hexrgb("#27303A"))]      # rear window
    if label:
        items.append(T(label, 0, 1.2, 1.6, WHITE))
    return G(items, cx, cy, rot=0 if up else 180)


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

