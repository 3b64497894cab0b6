"""Signal displays: traffic signal faces (balls, arrows, flashing yellow arrow),
lane-use control signals, pedestrian signals, the pedestrian hybrid beacon and
the rectangular rapid-flashing beacon. A flashing light is shown with short
rays around the lit lens and the word FLASHING underneath."""

import math

import cairo

from .colors import (ASPHALT, BLACK, DIM, hexrgb, HOUSING, LENS_WELL, LIT, LUNAR_WHITE,
                     MARK_WHITE, POLE, PORTLAND_ORANGE, RED, WHITE, YELLOW)
from .shapes import rect
from .items import A, BOX, CAPTION_TEXT, DOT, F, FACE, G, ROUND, S, SHAPE, T
from .pictograms import walker
from .families import warning
from .canvas import Table

SCENES = Table()
scene = SCENES.add


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
            items.append(DOT(cx - r * 0.32, cy - r * 0.32, r * 0.28, WHITE))
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
            items.append(S(x_path(cx, cy, r), r * 0.26, col, cap=ROUND))
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
        items.append(S(x_path(cx, cy, r * 1.05), 3.2, LIT[color], cap=ROUND))
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
                               LIT["yellow"], cap=ROUND))
    # W16-7P downward diagonal arrow plaque
    py = by + 10.5
    items += [FACE(rect(cx - 9, py, 18, 10, 0.8), YELLOW, BLACK, 0.3, 0.5),
              A("M %f %f L %f %f" % (cx + 4.6, py + 2.4, cx - 2.6, py + 6.6), 1.5, hw=4.0, hl=2.6)]
    H = py + 10 + 7.5
    items.append(CAPTION_TEXT("FLASHING" if flashing else "LIGHTS DARK", cx, H - 3.6))
    return W, H, items


# --------------------------------------------------------------------------
# The table

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
