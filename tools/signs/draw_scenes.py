#!/usr/bin/env python3
"""Draw the PermitReady pictures that are not plain road signs.

Signal displays (traffic lights, arrows, lane-use control signals, pedestrian
signals, pedestrian hybrid beacons, rectangular rapid-flashing beacons), top-down
pavement-marking diagrams, railroad-crossing assemblies and a few work-zone signs.
Each picture is ``Banks/signs/<id>.png`` and has an entry in ``Banks/signs.json``
(groups ``signal``, ``marking``, ``railroad``, ``workZone``).

Sign faces reuse the drawing helpers of ``draw_signs.py`` (imported read-only);
this script only adds scenes. Run it by hand from the repository root::

    python3 tools/signs/draw_scenes.py                    # all scenes -> Banks/signs/
    python3 tools/signs/draw_scenes.py signal-red hawk-dark   # just these ids
    python3 tools/signs/draw_scenes.py --sheet /tmp/scenes.png  # also a contact sheet
    python3 tools/signs/draw_scenes.py --out /tmp/preview       # draw somewhere else

Needs pycairo and the DejaVu fonts (see draw_signs.py); pngquant/optipng are
used when present. Every picture is flattened onto an opaque light background
(Telegram recompresses photos to JPEG, where transparency turns black); its long
side is 512 px.

Shapes, colours and legends follow the MUTCD 11th edition (December 2023);
drawings are simplified diagrams, not engineering drawings. A flashing light is
shown with short rays around the lit lens and the word FLASHING underneath.
"""

import math
import os
import sys

import cairo

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import draw_signs as ds  # noqa: E402  (read-only use of the sign helpers)

from draw_signs import (  # noqa: E402
    A, BLACK, BLUE, DOT, F, FACE, G, ORANGE, RED, RING, S, SHAPE, T,
    WHITE, YELLOW, Circle, crossbuck, dia_lines, rect,
    triangle_down, walker, warning, XBUCK, hexrgb)

# --------------------------------------------------------------------------
# Colours

CARD = getattr(ds, "CARD", hexrgb("#F3F4F6"))     # picture background
HOUSING = hexrgb("#1E1F22")
LENS_WELL = hexrgb("#0B0B0C")
POLE = hexrgb("#8A9099")
LIT = {"red": hexrgb("#FF2A1F"), "yellow": hexrgb("#FFB81C"),
       "green": hexrgb("#16D27A")}
DIM = {"red": hexrgb("#4A1512"), "yellow": hexrgb("#4A3A12"),
       "green": hexrgb("#123F2A")}
LUNAR_WHITE = hexrgb("#F4F1E6")
PORTLAND_ORANGE = hexrgb("#FF6F1A")
ASPHALT = hexrgb("#55595F")
SHOULDER = hexrgb("#6B7077")
VERGE = hexrgb("#B9C9A7")                          # grass beside the road
MARK_WHITE = hexrgb("#F7F7F7")
MARK_YELLOW = hexrgb("#F5C518")
CAR_YOU = hexrgb("#2F6FDE")
CAR_OTHER = hexrgb("#D7DBE0")
RAIL = hexrgb("#3A3A3A")
TIE = hexrgb("#7B6654")
CAPTION = hexrgb("#33363B")

LONG_SIDE = 512
PAD = 10


def BOX(x, y, w, h, color, r=0.0):
    return SHAPE(rect(x, y, w, h, r), color)


def CAPTION_TEXT(s, cx, cy, cap=2.2):
    return T(s, cx, cy, cap, CAPTION)


# --------------------------------------------------------------------------
# Signal lenses. A lens is drawn centred on (cx, cy) with radius r.

def rays(cx, cy, r, color, n=12, r0=1.12, r1=1.5, w=None):
    """Short radial strokes around a lit lens: the picture's sign for 'flashing'."""
    def draw(p):
        c = p.c
        c.set_source_rgb(*color)
        c.set_line_width(w or r * 0.14)
        c.set_line_cap(cairo.LINE_CAP_ROUND)
        for k in range(n):
            a = 2 * math.pi * (k + 0.5) / n
            c.move_to(cx + r * r0 * math.cos(a), cy + r * r0 * math.sin(a))
            c.line_to(cx + r * r1 * math.cos(a), cy + r * r1 * math.sin(a))
        c.stroke()
    return draw


def glow(cx, cy, r, color):
    """Soft halo behind a lit lens."""
    def draw(p):
        c = p.c
        g = cairo.RadialGradient(cx, cy, r * 0.9, cx, cy, r * 1.45)
        g.add_color_stop_rgba(0, *color, 0.55)
        g.add_color_stop_rgba(1, *color, 0.0)
        c.new_path()
        c.arc(cx, cy, r * 1.45, 0, 2 * math.pi)
        c.set_source(g)
        c.fill()
    return draw


def left_arrow_path(cx, cy, r):
    """Left-turn arrow symbol (shaft + head) inside a lens of radius r."""
    k = r / 8.4
    return ("M %f %f L %f %f L %f %f L %f %f L %f %f L %f %f L %f %f Z" % (
        cx - 7.5 * k, cy,
        cx - 1.5 * k, cy - 6.2 * k,
        cx - 1.5 * k, cy - 2.4 * k,
        cx + 7.2 * k, cy - 2.4 * k,
        cx + 7.2 * k, cy + 2.4 * k,
        cx - 1.5 * k, cy + 2.4 * k,
        cx - 1.5 * k, cy + 6.2 * k))


def down_arrow_path(cx, cy, r):
    k = r / 10
    return ("M %f %f L %f %f L %f %f L %f %f L %f %f L %f %f L %f %f Z" % (
        cx, cy + 8.0 * k,
        cx - 6.4 * k, cy + 1.6 * k,
        cx - 2.5 * k, cy + 1.6 * k,
        cx - 2.5 * k, cy - 8.0 * k,
        cx + 2.5 * k, cy - 8.0 * k,
        cx + 2.5 * k, cy + 1.6 * k,
        cx + 6.4 * k, cy + 1.6 * k))


def x_path(cx, cy, r):
    k = r / 10
    return "M %f %f L %f %f M %f %f L %f %f" % (
        cx - 6.2 * k, cy - 6.2 * k, cx + 6.2 * k, cy + 6.2 * k,
        cx + 6.2 * k, cy - 6.2 * k, cx - 6.2 * k, cy + 6.2 * k)


def lens(cx, cy, r, color, state="off", kind="ball"):
    """One signal lens. state: off | on | flash. kind: ball | left | down | x."""
    on = state in ("on", "flash")
    items = []
    if on:
        items.append(glow(cx, cy, r, LIT[color]))
    items.append(DOT(cx, cy, r * 1.08, LENS_WELL))
    if kind == "ball":
        items.append(DOT(cx, cy, r, LIT[color] if on else DIM[color]))
        if on:
            items.append(DOT(cx - r * 0.32, cy - r * 0.32, r * 0.28, hexrgb("#FFFFFF")))
    else:
        items.append(DOT(cx, cy, r, hexrgb("#151515")))
        if on:
            items.append(DOT(cx, cy, r, hexrgb("#2A2622")))
        col = LIT[color] if on else DIM[color]
        if kind == "left":
            items.append(F(left_arrow_path(cx, cy, r), col))
        elif kind == "down":
            items.append(F(down_arrow_path(cx, cy, r), col))
        elif kind == "x":
            items.append(S(x_path(cx, cy, r), r * 0.26, col, cap=ds.ROUND))
    if state == "flash":
        items.append(rays(cx, cy, r, LIT[color]))
    return items


def vertical_head(cx, top, lenses, r=5.0, gap=2.2):
    """Vertical signal face; lenses = [(color, state, kind), ...] top to bottom."""
    step = 2 * r + 2 * gap
    w = 2 * r + 2 * gap + 1.2
    h = step * len(lenses) + 0.6
    items = [BOX(cx - w / 2, top, w, h, HOUSING, r * 0.35)]
    for k, (color, state, kind) in enumerate(lenses):
        items += lens(cx, top + 0.3 + step * (k + 0.5), r, color, state, kind)
    return items, h


def mast(cx, top, length=6.0):
    return BOX(cx - 0.7, top, 1.4, length, POLE)


def signal_scene(lenses, caption=None, r=5.0):
    """A single vertical signal face hanging from a short bracket."""
    W = 40.0
    head, h = vertical_head(W / 2, 6.0, lenses, r)
    H = 6.0 + h + (9.0 if caption else 5.0)
    items = [BOX(0, 0, W, 2.2, POLE), mast(W / 2, 0, 6.2)] + head
    if caption:
        items.append(CAPTION_TEXT(caption, W / 2, H - 4.6))
    return W, H, items


THREE = ("red", "yellow", "green")


def ball_signal(active, state="on", caption=None):
    lenses = [(c, state if c == active else "off", "ball") for c in THREE]
    return signal_scene(lenses, caption)


def fya_signal(active, state="on", caption=None):
    """Four-section left-turn face: red arrow, yellow arrow, flashing yellow
    arrow, green arrow (top to bottom), as the MUTCD arranges it."""
    order = [("red", "left"), ("yellow", "left"), ("yellow", "left"), ("green", "left")]
    lenses = []
    for k, (color, kind) in enumerate(order):
        st = state if k == active else "off"
        lenses.append((color, st, kind))
    return signal_scene(lenses, caption, r=4.8)


def lane_use(kind):
    """Square lane-use control signal face over a lane (red X, yellow X, green arrow)."""
    W, H = 40.0, 40.0
    color = {"red-x": "red", "yellow-x": "yellow", "green-arrow": "green"}[kind]
    items = [BOX(0, 0, W, 2.2, POLE), mast(W / 2, 0, 5.0),
             BOX(W / 2 - 13, 5.0, 26, 26, HOUSING, 1.6),
             BOX(W / 2 - 11.5, 6.5, 23, 23, LENS_WELL, 1.0)]
    cx, cy, r = W / 2, 18.0, 14.0
    items.append(glow(cx, cy, 9.0, LIT[color]))
    items.append(BOX(W / 2 - 11.5, 6.5, 23, 23, LENS_WELL, 1.0))
    if kind == "green-arrow":
        items.append(F(down_arrow_path(cx, cy, r * 0.82), LIT[color]))
    else:
        items.append(S(x_path(cx, cy, r * 1.05), 3.2, LIT[color], cap=ds.ROUND))
    # lane lines under the signal, to show it hangs over one lane
    items += [BOX(0, 34.5, W, 5.5, ASPHALT),
              BOX(W / 2 - 14.5, 35.5, 1.0, 4.5, MARK_WHITE),
              BOX(W / 2 + 13.5, 35.5, 1.0, 4.5, MARK_WHITE)]
    return W, H, items


# --------------------------------------------------------------------------
# Pedestrian signals

def upraised_hand(cx, cy, s, color):
    """Upraised hand, palm toward the viewer; about 10 x 13 units at s = 1."""
    fingers = []
    for x, top in (((-3.0, -6.0), (-1.0, -6.9), (1.0, -6.7), (3.0, -5.6))):
        fingers.append(SHAPE(rect(x - 0.85, top, 1.7, 6.5, 0.85), color))
    palm = SHAPE(rect(-3.9, -1.6, 7.8, 6.9, 1.6), color)
    thumb = F("M -3.6 1.6 L -6.0 -1.6 C -6.6 -2.4 -5.6 -3.2 -4.9 -2.5 L -2.8 0.2 Z", color)
    wrist = SHAPE(rect(-3.0, 4.4, 6.0, 3.0, 0.4), color)
    return G([palm, thumb, wrist] + fingers, cx, cy, s)


def ped_scene(symbol, caption=None, countdown=None):
    """Pedestrian signal head with one symbol lit (walk / hand)."""
    W = 46.0 if countdown else 40.0
    H = 40.0 if caption else 35.0
    hw = 38.0 if countdown else 28.0
    items = [BOX(0, 0, W, 2.2, POLE), mast(W / 2, 0, 4.0),
             BOX(W / 2 - hw / 2, 4.0, hw, 27, HOUSING, 1.6),
             BOX(W / 2 - hw / 2 + 1.5, 5.5, hw - 3, 24, LENS_WELL, 1.0)]
    cx, cy = W / 2, 17.5
    if symbol == "walk":
        items.append(G(walker(), cx, cy + 8.6, (1.75, 1.75), flip=True, ink=LUNAR_WHITE))
    else:
        hx = cx - 8.0 if countdown else cx
        items.append(upraised_hand(hx, cy, 1.2 if countdown else 1.3, PORTLAND_ORANGE))
        if countdown:
            items.append(T(countdown, cx + 8.0, cy, 9.0, PORTLAND_ORANGE))
        if symbol == "flash-hand":
            items.append(rays(hx, cy, 7.2, PORTLAND_ORANGE, n=10, r0=1.12, r1=1.38, w=0.8))
    if caption:
        items.append(CAPTION_TEXT(caption, W / 2, H - 4.4))
    return W, H, items


# --------------------------------------------------------------------------
# Pedestrian hybrid beacon: two red lenses side by side above one yellow lens,
# with the CROSSWALK STOP ON RED (R10-23) sign beneath.

def hawk(left="off", right="off", yellow="off", caption=None):
    W = 44.0
    r = 4.6
    cx, top = W / 2, 4.5
    items = [BOX(0, 0, W, 2.2, POLE), mast(cx, 0, 4.6)]
    # housing: a "T" of three sections
    items += [BOX(cx - 2 * r - 4.4, top, 4 * r + 8.8, 2 * r + 3.4, HOUSING, 1.4),
              BOX(cx - r - 2.2, top + 2 * r + 2.4, 2 * r + 4.4, 2 * r + 4.4, HOUSING, 1.4)]
    ly = top + r + 1.7
    items += lens(cx - r - 2.0, ly, r, "red", left)
    items += lens(cx + r + 2.0, ly, r, "red", right)
    items += lens(cx, ly + 2 * r + 3.4, r, "yellow", yellow)
    # R10-23 CROSSWALK STOP ON RED
    sy = top + 4 * r + 9.5
    items += [FACE(rect(cx - 9, sy, 18, 14.5, 0.8), WHITE, BLACK, 0.3, 0.5),
              T("CROSSWALK", cx, sy + 2.8, 1.75, BLACK, maxw=15.5),
              T("STOP", cx, sy + 6.2, 2.2, BLACK, maxw=15),
              T("ON", cx - 2.6, sy + 10.4, 2.2, BLACK),
              DOT(cx + 3.2, sy + 10.4, 2.3, RED)]
    H = sy + 14.5 + (7.0 if caption else 2.5)
    if caption:
        items.append(CAPTION_TEXT(caption, cx, H - 3.6))
    return W, H, items


# --------------------------------------------------------------------------
# Rectangular rapid-flashing beacon: W11-2 sign, the two-light bar, W16-7P plaque.

def rrfb(flashing):
    W = 40.0
    cx = W / 2
    items = [BOX(cx - 0.8, 26, 1.6, 34, POLE)]
    # pedestrian crossing sign (diamond, 26 units)
    sign = warning(G(walker(), 15.3, 23.0, 1.62, flip=True))[2]
    items.append(G(sign, cx - 13, 0.5, 26 / 30))
    # beacon bar: two rectangular yellow lights that flash rapidly in turn
    by = 27.5
    xs = (cx - 7.2, cx + 7.2)
    if flashing:
        items += [glow(x, by + 3, 4.0, LIT["yellow"]) for x in xs]
    items.append(BOX(cx - 14, by, 28, 6.0, HOUSING, 0.8))
    for x in xs:
        items.append(BOX(x - 5.2, by + 1.2, 10.4, 3.6, LIT["yellow"] if flashing else DIM["yellow"], 0.4))
        if flashing:
            for (ax, ay, bx, byy) in ((-6.5, -0.6, -8.2, -2.2), (0, -0.8, 0, -2.9), (6.5, -0.6, 8.2, -2.2),
                                      (-6.5, 6.6, -8.2, 8.2), (0, 6.8, 0, 8.9), (6.5, 6.6, 8.2, 8.2)):
                items.append(S("M %f %f L %f %f" % (x + ax, by + ay, x + bx, by + byy), 0.55,
                               LIT["yellow"], cap=ds.ROUND))
    # W16-7P downward diagonal arrow plaque
    py = by + 10.5
    items += [FACE(rect(cx - 9, py, 18, 10, 0.8), YELLOW, BLACK, 0.3, 0.5),
              A("M %f %f L %f %f" % (cx + 4.6, py + 2.4, cx - 2.6, py + 6.6), 1.5, hw=4.0, hl=2.6)]
    H = py + 10 + 7.5
    items.append(CAPTION_TEXT("FLASHING" if flashing else "LIGHTS DARK", cx, H - 3.6))
    return W, H, items


# --------------------------------------------------------------------------
# Top-down road diagrams. Units: 1 = 1 ft, roughly; lines are drawn wider than
# real life so they read at phone size. Traffic in the right-hand lanes goes up.

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


def two_lane(center_items, H=80.0, you=True, oncoming=True):
    """Two-lane, two-way road; ``center_items`` draws the centre line(s)."""
    lane = 12.0
    W = 44.0
    cx = W / 2
    items = road_bg(W, H, cx - lane, cx + lane, 2.5)
    items += [solid(cx - lane + 0.6, 0, H, MARK_WHITE), solid(cx + lane - 0.6, 0, H, MARK_WHITE)]
    items += center_items(cx, H)
    if oncoming:
        items.append(car(cx - lane / 2, 20.0, up=False))
    if you:
        items.append(car(cx + lane / 2, H - 18.0, up=True, color=CAR_YOU, label="YOU"))
    return W, H, items


def two_lane_oneway(between, H=80.0, edge=True):
    """Two lanes going the same way (up): ``between`` draws the lane line."""
    lane = 12.0
    W = 44.0
    cx = W / 2
    items = road_bg(W, H, cx - lane, cx + lane, 2.5)
    if edge:
        items += [solid(cx - lane + 0.6, 0, H, MARK_YELLOW), solid(cx + lane - 0.6, 0, H, MARK_WHITE)]
    items += between(cx, H)
    items += [car(cx - lane / 2, 24.0, up=True), car(cx + lane / 2, H - 18.0, up=True, color=CAR_YOU, label="YOU")]
    return W, H, items


def divided():
    """One side of a divided highway: grass median on the left, yellow left
    edge line, broken white lane line, white right edge line, paved shoulders."""
    lane = 12.0
    W, H = 62.0, 84.0
    x0 = 22.0                   # left edge of our roadway
    x1 = x0 + 2 * lane
    items = [BOX(0, 0, W, H, VERGE),
             BOX(0, 0, 9.0, H, SHOULDER), BOX(0, 0, 6.5, H, ASPHALT),        # the other roadway
             solid(7.1, 0, H, MARK_YELLOW),
             BOX(x0 - 3.0, 0, 2 * lane + 3.0 + 5.0, H, SHOULDER),
             BOX(x0, 0, 2 * lane, H, ASPHALT),
             solid(x0 + 0.5, 0, H, MARK_YELLOW), solid(x1 - 0.5, 0, H, MARK_WHITE),
             broken(x0 + lane, 0, H, MARK_WHITE, phase=8),
             T("MEDIAN", 14.5, H / 2, 1.9, hexrgb("#4F6140")),
             car(3.2, 22.0, up=False),
             car(x0 + lane / 2, 26.0, up=True),
             car(x0 + 1.5 * lane, H - 16.0, up=True, color=CAR_YOU, label="YOU")]
    return W, H, items


def wrong_way():
    """The same divided highway seen by a driver on the wrong roadway: the
    yellow (median-side) edge line is on the driver's RIGHT."""
    lane = 12.0
    W, H = 62.0, 84.0
    x0 = 9.0                    # left edge of the roadway we are (wrongly) on
    x1 = x0 + 2 * lane
    items = [BOX(0, 0, W, H, VERGE),
             BOX(x0 - 5.0, 0, 2 * lane + 8.0, H, SHOULDER),
             BOX(x0, 0, 2 * lane, H, ASPHALT),
             solid(x0 + 0.5, 0, H, MARK_WHITE), solid(x1 - 0.5, 0, H, MARK_YELLOW),
             broken(x0 + lane, 0, H, MARK_WHITE, phase=8),
             T("MEDIAN", 43.0, H / 2, 1.9, hexrgb("#4F6140")),
             BOX(W - 9.0, 0, 9.0, H, SHOULDER), BOX(W - 6.5, 0, 6.5, H, ASPHALT),
             solid(W - 7.1, 0, H, MARK_YELLOW),
             car(W - 3.2, 30.0, up=True),
             car(x0 + 1.5 * lane, H - 16.0, up=True, color=CAR_YOU, label="YOU")]
    return W, H, items


def twltl():
    lane = 12.0
    W, H = 58.0, 96.0
    cx = W / 2
    x0, x1 = cx - 1.5 * lane, cx + 1.5 * lane
    items = road_bg(W, H, x0, x1, 2.5)
    items += [solid(x0 + 0.6, 0, H, MARK_WHITE), solid(x1 - 0.6, 0, H, MARK_WHITE)]
    for side in (-1, 1):
        xo = cx + side * (lane / 2)                 # outer (solid) line
        xi = cx + side * (lane / 2 - 1.6)           # inner (broken) line
        items += [solid(xo, 0, H, MARK_YELLOW), broken(xi, 0, H, MARK_YELLOW, phase=6)]
    # pair of opposing left-turn arrows in the centre lane
    items.append(A("M %f %f V %f C %f %f %f %f %f %f" % (
        cx + 2.0, 70, 59.0, cx + 2.0, 55.5, cx + 0.6, 54.0, cx - 1.6, 54.0), 1.4, hw=4.0, hl=2.6, color=MARK_WHITE))
    items.append(A("M %f %f V %f C %f %f %f %f %f %f" % (
        cx - 2.0, 22, 33.0, cx - 2.0, 36.5, cx - 0.6, 38.0, cx + 1.6, 38.0), 1.4, hw=4.0, hl=2.6, color=MARK_WHITE))
    items += [car(cx - lane, 18.0, up=False), car(cx + lane, H - 16.0, up=True, color=CAR_YOU, label="YOU")]
    # a driveway on the left to show where turns go
    items += [BOX(0, 41.0, x0 - 2.5, 10.0, SHOULDER)]
    return W, H, items


def reversible():
    lane = 12.0
    W, H = 58.0, 90.0
    cx = W / 2
    x0, x1 = cx - 1.5 * lane, cx + 1.5 * lane
    items = road_bg(W, H, x0, x1, 2.5)
    items += [solid(x0 + 0.6, 0, H, MARK_WHITE), solid(x1 - 0.6, 0, H, MARK_WHITE)]
    for side in (-1, 1):
        x = cx + side * lane / 2
        items += [broken(x - 0.9, 0, H, MARK_YELLOW, phase=4), broken(x + 0.9, 0, H, MARK_YELLOW, phase=4)]
    items += [car(cx - lane, 20.0, up=False), car(cx + lane, H - 16.0, up=True, color=CAR_YOU, label="YOU"),
              car(cx, 48.0, up=True)]
    return W, H, items


def approach(lanes, stop_line=True, crosswalk=True, yield_line=False, extra=None, H=90.0,
             oncoming=True, lane_line="broken"):
    """Approach to an intersection (cross street at the top). ``lanes`` going up
    on the right; one oncoming lane on the left when ``oncoming``."""
    lane = 12.0
    n_left = 1 if oncoming else 0
    width = lane * (lanes + n_left)
    W = width + 16.0
    x0 = 8.0
    x1 = x0 + width
    xc = x0 + n_left * lane                     # centre line / left edge of our lanes
    cross_top, cross_bot = 0.0, 24.0            # the cross street
    items = [BOX(0, 0, W, H, VERGE), BOX(x0, 0, width, H, ASPHALT), BOX(0, cross_top, W, cross_bot, ASPHALT)]
    cw_y0, cw_y1 = cross_bot + 1.0, cross_bot + 9.0
    if crosswalk:                                # high-visibility (ladder) crosswalk
        items += [BOX(x0, cw_y0, width, 0.8, MARK_WHITE), BOX(x0, cw_y1 - 0.8, width, 0.8, MARK_WHITE)]
        x = x0 + 1.2
        while x < x1 - 1.0:
            items.append(BOX(x, cw_y0 + 0.8, 1.6, cw_y1 - cw_y0 - 1.6, MARK_WHITE))
            x += 3.6
    line_y = cw_y1 + 4.0
    if stop_line:
        items.append(BOX(xc, line_y, x1 - xc - 0.6, 1.8, MARK_WHITE))
    if yield_line:
        x = xc + 0.9
        while x + 3.0 <= x1 - 0.4:
            items.append(F("M %f %f H %f L %f %f Z" % (x, line_y, x + 3.0, x + 1.5, line_y + 4.4), MARK_WHITE))
            x += 4.3
    y_lines = line_y + (6.0 if yield_line else 1.8)
    # edge lines and centre line
    items += [solid(x1 - 0.6, y_lines, H, MARK_WHITE)]
    if oncoming:
        items += [solid(x0 + 0.6, cw_y1, H, MARK_WHITE), solid(xc - 0.5, y_lines, H, MARK_YELLOW),
                  solid(xc + 0.5, y_lines, H, MARK_YELLOW)]
    for k in range(1, lanes):
        x = xc + k * lane
        if lane_line == "solid":
            items.append(solid(x, y_lines, H, MARK_WHITE))
        else:
            items.append(broken(x, y_lines, H, MARK_WHITE, phase=2))
    if extra:
        items += extra(xc, lane, y_lines, H)
    return W, H, items


def lane_arrows(xc, lane, y_top, H):
    y = y_top + 10
    lx, mx, rx = xc + lane / 2, xc + 1.5 * lane, xc + 2.5 * lane
    items = [
        # left lane: left-turn arrow + ONLY (word farther from the driver)
        A("M %f %f V %f C %f %f %f %f %f %f" % (lx + 1.6, y + 22, y + 13, lx + 1.6, y + 10.5, lx + 0.6, y + 9.6,
                                                lx - 1.2, y + 9.6), 1.4, hw=4.0, hl=2.6, color=MARK_WHITE),
        T("ONLY", lx, y + 1.0, 3.4, MARK_WHITE, maxw=8.5),
        # middle lane: straight
        A("M %f %f V %f" % (mx, y + 22, y + 10), 1.4, hw=4.0, hl=2.6, color=MARK_WHITE),
        # right lane: straight and right
        A("M %f %f V %f" % (rx - 1.2, y + 22, y + 10), 1.4, hw=4.0, hl=2.6, color=MARK_WHITE),
        A("M %f %f V %f C %f %f %f %f %f %f" % (rx - 1.2, y + 20, y + 17, rx - 1.2, y + 15.4, rx - 0.2, y + 14.6,
                                                rx + 1.4, y + 14.6), 1.4, hw=4.0, hl=2.6, color=MARK_WHITE),
        car(lx, H - 12, up=True, color=CAR_YOU, label="YOU"),
    ]
    return items


def bicycle_symbol(color):
    """Bicycle without rider, side view, ~12 x 7 units, centred on (0, 0)."""
    return [RING(-3.6, 1.6, 2.6, 0.7, color), RING(3.6, 1.6, 2.6, 0.7, color),
            S("M -3.6 1.6 L -1.2 -2.2 L 0.6 1.6 Z M -1.2 -2.2 L 2.8 -2.2 L 0.6 1.6 "
              "M 2.4 -3.6 L 3.6 1.6", 0.6, color, cap=ds.ROUND, join=ds.RJOIN),
            S("M -1.9 -2.9 H -0.4 M 1.7 -3.6 L 3.3 -4.0", 0.7, color, cap=ds.ROUND)]


def sharrow():
    lane = 14.0
    W, H = 48.0, 84.0
    cx = W / 2
    items = road_bg(W, H, cx - lane, cx + lane, 2.5)
    items += [solid(cx - 0.5, 0, H, MARK_YELLOW), solid(cx + 0.5, 0, H, MARK_YELLOW)]
    # parked-car edge on the right: solid white
    items.append(solid(cx + lane - 0.6, 0, H, MARK_WHITE))
    sx = cx + lane / 2 + 1.0
    items.append(G(bicycle_symbol(MARK_WHITE), sx, 50.0, (1.0, 1.35)))
    for k, y in enumerate((34.0, 40.0)):
        items.append(S("M %f %f L %f %f L %f %f" % (sx - 4.0, y + 3.2, sx, y, sx + 4.0, y + 3.2), 1.3,
                       MARK_WHITE, join=ds.MJOIN))
    items += [car(cx + lane / 2 + 1.0, H - 12, up=True, color=CAR_YOU, label="YOU"),
              car(cx - lane / 2, 14.0, up=False)]
    return W, H, items


def bike_lane():
    lane = 12.0
    blane = 7.0
    W, H = 50.0, 84.0
    cx = 17.0
    x1 = cx + lane + blane
    items = [BOX(0, 0, W, H, VERGE), BOX(cx - lane, 0, 2 * lane + blane, H, ASPHALT)]
    items += [solid(cx - 0.5, 0, H, MARK_YELLOW), solid(cx + 0.5, 0, H, MARK_YELLOW),
              solid(cx + lane, 0, H, MARK_WHITE, w=1.2), solid(x1 - 0.6, 0, H, MARK_WHITE)]
    bx = cx + lane + blane / 2
    items.append(G(bicycle_symbol(MARK_WHITE), bx, 44.0, (0.5, 1.25), rot=0))
    items.append(A("M %f %f V %f" % (bx, 33.0, 24.0), 1.2, hw=3.6, hl=2.4, color=MARK_WHITE))
    items += [car(cx + lane / 2, H - 14, up=True, color=CAR_YOU, label="YOU"), car(cx - lane / 2, 16, up=False)]
    return W, H, items


def hov():
    lane = 12.0
    W, H = 44.0, 90.0
    cx = W / 2
    items = road_bg(W, H, cx - lane, cx + lane, 2.5)
    items += [solid(cx - lane + 0.6, 0, H, MARK_YELLOW), solid(cx + lane - 0.6, 0, H, MARK_WHITE),
              solid(cx - 0.9, 0, H, MARK_WHITE), solid(cx + 0.9, 0, H, MARK_WHITE)]
    dx = cx - lane / 2
    for y in (14.0, 56.0):
        items.append(S("M %f %f L %f %f L %f %f L %f %f Z" % (dx, y, dx + 3.2, y + 10, dx, y + 20, dx - 3.2, y + 10),
                       1.0, MARK_WHITE))
    items += [car(cx + lane / 2, H - 16.0, up=True, color=CAR_YOU, label="YOU"), car(cx - lane / 2, 42.0, up=True)]
    return W, H, items


# --------------------------------------------------------------------------
# Railroad

def post(cx, top, bottom, w=1.6):
    return BOX(cx - w / 2, top, w, bottom - top, POLE)


def crossbuck_assembly(kind):
    """Crossbuck (R15-1) with a YIELD (R1-2) or STOP (R1-1) sign on the same post."""
    s = 0.5
    xb = XBUCK * s
    W = xb + 10.0
    cx = W / 2
    H = xb + 36.0
    items = [post(cx, xb / 2, H - 1.0)]
    items.append(G(crossbuck(XBUCK / 2, XBUCK / 2), cx - xb / 2, 1.0, s))
    sy = xb + 4.0
    if kind == "yield":
        items.append(G([SHAPE(triangle_down(36, r=1.8), RED), SHAPE(triangle_down(36, r=1.8), WHITE, inset=4.4),
                        T("YIELD", 18, 9.0, 3.7, RED, maxw=13.5)], cx - 12.0, sy, 24 / 36))
    else:
        items.append(G(ds.stop_face(), cx - 12.0, sy, 24 / 30))
    return W, H, items


def flashing_lights_gate():
    """Flashing-light signal with crossbuck, and the gate arm lowered across the road."""
    W, H = 80.0, 72.0
    px = 16.0
    items = [BOX(0, H - 16, W, 10, ASPHALT), BOX(0, H - 16.6, W, 0.6, MARK_WHITE)]
    items.append(post(px, 6.0, H - 14.0, 2.0))
    s = 0.46
    xb = XBUCK * s
    items.append(G(crossbuck(XBUCK / 2, XBUCK / 2), px - xb / 2, 0.5, s))
    # cross-arm with two red lights that flash in turn (one shown lit)
    ly = xb + 7.5
    items += [BOX(px - 13, ly - 0.7, 26, 1.4, BLACK)]
    for k, x in enumerate((px - 8.0, px + 8.0)):
        items += [DOT(x, ly, 6.0, BLACK)]
        items += lens(x, ly, 4.0, "red", "flash" if k == 0 else "off")
    # gate arm, lowered across the road: red-and-white stripes with red lights
    gy = ly + 15.0
    items += [BOX(px - 3.5, gy - 4, 7, 10, hexrgb("#3A3D42"), 0.6)]

    def stripes(p):
        c = p.c
        x0, x1, y0, h = px + 3.5, W - 1.5, gy - 1.1, 2.2
        c.save()
        c.rectangle(x0, y0, x1 - x0, h)
        c.clip()
        c.set_source_rgb(*WHITE)
        c.paint()
        c.set_source_rgb(*RED)
        x = x0
        while x < x1 + 4:
            c.move_to(x, y0 + h)
            c.line_to(x + 2.6, y0 + h)
            c.line_to(x + 2.6 + h, y0)
            c.line_to(x + h, y0)
            c.close_path()
            x += 5.2
        c.fill()
        c.restore()
    items.append(stripes)
    for x in (px + 34, W - 5):
        items += lens(x, gy - 3.2, 1.8, "red", "on")
    items.append(CAPTION_TEXT("LIGHTS FLASHING, GATE DOWN", W / 2, H - 2.8, cap=2.6))
    return W, H, items


def ens_sign():
    """Emergency Notification System sign (I-13): white legend on blue."""
    W, H = 48.0, 30.0
    items = [FACE(rect(0, 0, W, H, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
             T("REPORT EMERGENCY", W / 2, 5.6, 3.0, WHITE, maxw=41),
             T("OR PROBLEM TO", W / 2, 10.2, 3.0, WHITE, maxw=41),
             T("1-800-555-0199", W / 2, 15.6, 3.6, WHITE, maxw=41),
             T("CROSSING", W / 2, 20.8, 3.0, WHITE, maxw=41),
             T("123 456X", W / 2, 25.2, 3.0, WHITE, maxw=41)]
    return W, H, items


def rr_pavement():
    """Approach to a crossing: RXR pavement marking, stop line, tracks, and the
    W10-1 advance warning sign beside the road (drawn upright)."""
    lane = 16.0
    W, H = 70.0, 110.0
    cx = 26.0
    x0, x1 = cx - lane, cx + lane
    items = [BOX(0, 0, W, H, VERGE), BOX(x0, 0, 2 * lane, H, ASPHALT)]
    ty = 9.0
    for k in range(0, int(W) + 3, 3):
        items.append(BOX(k, ty - 3.6, 1.4, 7.2, TIE))
    items += [BOX(0, ty - 2.2, W, 0.9, RAIL), BOX(0, ty + 1.3, W, 0.9, RAIL)]
    items += [solid(cx - 0.5, ty + 6, H, MARK_YELLOW), solid(cx + 0.5, ty + 6, H, MARK_YELLOW),
              solid(x0 + 0.6, ty + 6, H, MARK_WHITE), solid(x1 - 0.6, ty + 6, H, MARK_WHITE)]
    items.append(BOX(cx + 0.6, ty + 12.0, lane - 1.2, 1.8, MARK_WHITE))          # stop line
    my, mh = 38.0, 34.0
    lx0, lx1 = cx + 1.4, x1 - 1.6
    items += [BOX(lx0, my, lx1 - lx0, 1.3, MARK_WHITE), BOX(lx0, my + mh, lx1 - lx0, 1.3, MARK_WHITE),
              S("M %f %f L %f %f M %f %f L %f %f" % (lx0 + 0.6, my + 5, lx1 - 0.6, my + mh - 3.7,
                                                      lx1 - 0.6, my + 5, lx0 + 0.6, my + mh - 3.7), 1.3, MARK_WHITE)]
    mid = (lx0 + lx1) / 2
    for x in (mid - 4.6, mid + 4.6):
        items.append(G([T("R", 0, 0, 3.0, MARK_WHITE)], x, my + mh / 2 + 0.6, (0.95, 2.4)))
    items.append(car(cx + lane / 2, H - 12.0, up=True, color=CAR_YOU, label="YOU"))
    sx, sy, r = 57.5, 52.0, 9.0
    items += [post(sx, sy, sy + 30, 1.3),
              FACE(Circle(sx, sy, r), YELLOW, BLACK, 0.25, 0.45),
              S("M %f %f L %f %f M %f %f L %f %f" % (sx - 5.2, sy - 5.2, sx + 5.2, sy + 5.2,
                                                      sx + 5.2, sy - 5.2, sx - 5.2, sy + 5.2), 1.2),
              T("R", sx - 5.6, sy, 2.5, BLACK), T("R", sx + 5.6, sy, 2.5, BLACK)]
    return W, H, items


# --------------------------------------------------------------------------
# Work zone

def orange_rect(w, h, *items):
    return w, h, [FACE(rect(0, 0, w, h, 1.5), ORANGE, BLACK, 0.5, 0.75)] + list(items)


def speed_assembly(fines):
    """WORK ZONE plaque (G20-5aP) over SPEED LIMIT 45 (R2-1), optional FINES
    DOUBLE plaque (R2-6P) below."""
    W = 30.0
    items = [FACE(rect(3, 0, 24, 9, 0.8), ORANGE, BLACK, 0.35, 0.55),
             T("WORK ZONE", 15, 4.5, 3.0, BLACK, maxw=20)]
    sy = 10.0
    items += [G(ds.regulatory(24, 30, T("SPEED", 12, 5.6, 3.6, maxw=19), T("LIMIT", 12, 10.8, 3.6, maxw=19),
                              T("45", 12, 20.4, 9.6, maxw=17))[2], 3, sy)]
    H = sy + 30
    if fines:
        items += [FACE(rect(3, H + 1, 24, 12, 0.8), WHITE, BLACK, 0.35, 0.55),
                  T("FINES", 15, H + 4.4, 3.2, BLACK, maxw=20), T("DOUBLE", 15, H + 9.4, 3.2, BLACK, maxw=20)]
        H += 13
    return W, H + 0.5, items


def arrow_board():
    """Flashing arrow panel on a trailer, arrow pointing left (merge left)."""
    W, H = 60.0, 50.0
    items = [BOX(0, 43, W, 3, ASPHALT),
             BOX(W / 2 - 1, 26, 2, 12, POLE), BOX(W / 2 - 12, 37, 24, 3, hexrgb("#E58A2B"), 0.6),
             DOT(W / 2 - 8, 41.5, 2.6, BLACK), DOT(W / 2 + 8, 41.5, 2.6, BLACK),
             BOX(4, 2, W - 8, 25, BLACK, 1.0)]
    # lamps: shaft along the middle, head at the left
    ly = 14.5
    pts = [(x, ly) for x in range(20, 52, 4)]
    pts += [(13, ly), (17, ly - 4), (21, ly - 8), (17, ly + 4), (21, ly + 8)]
    for (x, y) in pts:
        items.append(glow(x, y, 1.5, LIT["yellow"]))
    for (x, y) in pts:
        items.append(DOT(x, y, 1.35, LIT["yellow"]))
    items.append(CAPTION_TEXT("FLASHING", W / 2, H - 1.8, cap=2.4))
    return W, H, items


# --------------------------------------------------------------------------
# The table

SCENES = {}


def scene(sid, spec):
    assert sid not in SCENES, sid
    SCENES[sid] = spec


# Traffic signal displays
scene("signal-red", ball_signal("red"))
scene("signal-yellow", ball_signal("yellow"))
scene("signal-green", ball_signal("green"))
scene("signal-dark", ball_signal(None, caption="ALL LIGHTS DARK"))
scene("signal-flashing-red", ball_signal("red", "flash", "FLASHING"))
scene("signal-flashing-yellow", ball_signal("yellow", "flash", "FLASHING"))
scene("signal-green-arrow", fya_signal(3))
scene("signal-yellow-arrow", fya_signal(1))
scene("signal-flashing-yellow-arrow", fya_signal(2, "flash", "FLASHING"))
# Lane-use control signals
scene("lane-signal-red-x", lane_use("red-x"))
scene("lane-signal-yellow-x", lane_use("yellow-x"))
scene("lane-signal-green-arrow", lane_use("green-arrow"))
# Pedestrian signals
scene("ped-signal-walk", ped_scene("walk"))
scene("ped-signal-hand", ped_scene("hand"))
scene("ped-signal-flashing-hand", ped_scene("flash-hand", "FLASHING", countdown="12"))
# Pedestrian hybrid beacon (HAWK)
scene("hawk-dark", hawk(caption="ALL LIGHTS DARK"))
scene("hawk-flashing-yellow", hawk(yellow="flash", caption="FLASHING"))
scene("hawk-steady-yellow", hawk(yellow="on", caption="STEADY"))
scene("hawk-steady-red", hawk("on", "on", caption="STEADY"))
scene("hawk-flashing-red", hawk("flash", "off", caption="ALTERNATING FLASHES"))
# Rectangular rapid-flashing beacon
scene("rrfb-flashing", rrfb(True))
scene("rrfb-dark", rrfb(False))

# Pavement markings
scene("marking-broken-yellow-center", two_lane(lambda cx, H: [broken(cx, 0, H, MARK_YELLOW, phase=8)]))
scene("marking-no-passing-zone", two_lane(lambda cx, H: [
    broken(cx - 0.9, 0, H, MARK_YELLOW, phase=8), solid(cx + 0.9, 0, H, MARK_YELLOW)]))
scene("marking-double-solid-yellow", two_lane(lambda cx, H: [
    solid(cx - 0.9, 0, H, MARK_YELLOW), solid(cx + 0.9, 0, H, MARK_YELLOW)]))
scene("marking-two-way-left-turn-lane", twltl())
scene("marking-reversible-lane", reversible())
scene("marking-broken-white-lane-line", two_lane_oneway(lambda cx, H: [broken(cx, 0, H, MARK_WHITE, phase=8)]))
scene("marking-solid-white-lane-line", two_lane_oneway(lambda cx, H: [solid(cx, 0, H, MARK_WHITE)]))
scene("marking-double-solid-white", two_lane_oneway(lambda cx, H: [
    solid(cx - 0.9, 0, H, MARK_WHITE), solid(cx + 0.9, 0, H, MARK_WHITE)]))
scene("marking-edge-lines", divided())
scene("marking-wrong-way-edge-lines", wrong_way())
scene("marking-stop-line-crosswalk", approach(2, extra=lambda xc, lane, y, H: [
    car(xc + lane / 2, H - 14, up=True, color=CAR_YOU, label="YOU")]))
scene("marking-yield-line", approach(2, stop_line=False, yield_line=True, extra=lambda xc, lane, y, H: [
    car(xc + lane / 2, H - 14, up=True, color=CAR_YOU, label="YOU")]))
scene("marking-lane-use-arrows", approach(3, crosswalk=True, lane_line="solid", extra=lane_arrows, H=96.0))
scene("marking-sharrow", sharrow())
scene("marking-hov-diamond", hov())
scene("marking-bike-lane", bike_lane())

# Railroad
scene("railroad-flashing-lights-gate", flashing_lights_gate())
scene("railroad-ens-sign", ens_sign())
scene("railroad-crossbuck-yield", crossbuck_assembly("yield"))
scene("railroad-crossbuck-stop", crossbuck_assembly("stop"))
scene("railroad-pavement-marking", rr_pavement())

# Work zone (RIGHT LANE CLOSED AHEAD, END ROAD WORK and the yellow BE PREPARED TO
# STOP are drawn by draw_signs.py; the orange work-zone version is drawn here)
scene("road-work-500-ft", warning(*dia_lines(["ROAD", "WORK", "500 FT"], 3.4, 4.9), bg=ORANGE))
scene("work-zone-be-prepared-to-stop", warning(*dia_lines(["BE", "PREPARED", "TO STOP"], 3.1, 4.7), bg=ORANGE))
scene("shoulder-work", warning(*dia_lines(["SHOULDER", "WORK"], 3.1, 5.0), bg=ORANGE))
scene("road-work-next-2-miles", orange_rect(48, 24, T("ROAD WORK", 24, 7.6, 4.4, maxw=40),
                                            T("NEXT 2 MILES", 24, 16.4, 4.4, maxw=40)))
scene("work-zone-speed-limit", speed_assembly(False))
scene("work-zone-fines-double", speed_assembly(True))
scene("arrow-board-merge-left", arrow_board())


# --------------------------------------------------------------------------
# Rendering

def render(sid, path):
    w, h, items = SCENES[sid]
    s = (LONG_SIDE - 2 * PAD) / max(w, h)
    W, H = round(w * s) + 2 * PAD, round(h * s) + 2 * PAD
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, W, H)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(*CARD)
    ctx.paint()
    ctx.translate(PAD, PAD)
    ctx.scale(s, s)
    pen = ds.Pen(ctx)
    for item in items:
        item(pen)
    surface.write_to_png(path)


def main(argv):
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    out_dir = os.path.join(root, "Banks", "signs")
    if "--out" in argv:                       # draw somewhere else (for previews)
        k = argv.index("--out")
        out_dir = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    sheet = None
    if "--sheet" in argv:
        k = argv.index("--sheet")
        sheet = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    ids = argv or list(SCENES)
    clash = sorted(set(SCENES) & set(ds.SIGNS))
    if clash:
        sys.exit("ids also drawn by draw_signs.py (rename them here): " + ", ".join(clash))
    unknown = [i for i in ids if i not in SCENES]
    if unknown:
        sys.exit("unknown scene id(s): " + ", ".join(unknown))
    os.makedirs(out_dir, exist_ok=True)
    for sid in ids:
        path = os.path.join(out_dir, sid + ".png")
        render(sid, path)
        ds.shrink(path)
        print("%-32s %6d bytes" % (sid, os.path.getsize(path)))
    if sheet:
        ds.contact_sheet(ids, out_dir, sheet)
        print("contact sheet:", sheet)


if __name__ == "__main__":
    main(sys.argv[1:])
