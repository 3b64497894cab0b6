#!/usr/bin/env python3
"""Draw the PermitReady road-sign pictures from vector descriptions.

Every sign in ``Banks/signs.json`` has a picture ``Banks/signs/<id>.png``. This
script draws them all with cairo from the table ``SIGNS`` near the bottom of
this file: each entry is a sign face (shape, colours, border) plus a few items
(text, arrows, filled/stroked paths, small pictograms).

Run it by hand from the repository root (it is not part of CI)::

    python3 tools/signs/draw_signs.py                  # all signs -> Banks/signs/
    python3 tools/signs/draw_signs.py stop yield       # just these ids
    python3 tools/signs/draw_signs.py --sheet /tmp/sheet.png   # also a contact sheet

Needs:
  * Python 3.9+ and pycairo   (Debian: ``apt-get install python3-cairo``,
                               or ``pip install pycairo``)
  * the DejaVu fonts           (Debian: ``fonts-dejavu-core``)
  * optional: ``pngquant`` and/or ``optipng`` on PATH to shrink the files
    (each PNG is then a small palette image, roughly 5-15 KB). Without them
    the script still works; files are plain RGBA and somewhat larger.

Coordinates: each sign is described in inches, roughly at its MUTCD size
(a warning diamond is 30 x 30, a Speed Limit sign 24 x 30), origin at the
top-left corner of the sign's bounding box, y growing downward. The picture
is scaled so its long side is 512 px, with a transparent background.
Shapes and colours follow the federal MUTCD; symbols are simplified
drawings of the MUTCD symbols, not exact reproductions of the Standard
Highway Signs book.
"""

import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import cairo

# --------------------------------------------------------------------------
# Colours (sRGB approximations of the FHWA sign colours)

def hexrgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))

RED = hexrgb("#C8102E")
WHITE = hexrgb("#FFFFFF")
BLACK = hexrgb("#111111")
YELLOW = hexrgb("#FFCD00")
ORANGE = hexrgb("#F7801E")
FYG = hexrgb("#CCE61C")          # fluorescent yellow-green (school)
GREEN = hexrgb("#00703C")
BLUE = hexrgb("#0B4EA2")
SIGNAL_YELLOW = hexrgb("#FFB000")
SIGNAL_GREEN = hexrgb("#00A651")

FONT = "DejaVu Sans"
CAP = 0.729                       # DejaVu Sans Bold cap height, in em
LONG_SIDE = 512                   # px
PAD = 6                           # px of transparent margin around the sign

ROUND, BUTT = cairo.LINE_CAP_ROUND, cairo.LINE_CAP_BUTT
RJOIN, MJOIN = cairo.LINE_JOIN_ROUND, cairo.LINE_JOIN_MITER


class Pen:
    """A cairo context plus the sign's current legend colour."""

    def __init__(self, ctx):
        self.c = ctx
        self.ink = BLACK
        self.bg = WHITE


# --------------------------------------------------------------------------
# Path tracing: a small subset of SVG path syntax (M L H V C Q Z, abs + rel)

_TOKEN = re.compile(r"[MLHVCQZmlhvcqz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE]-?\d+)?")


def trace(c, d):
    """Add SVG path ``d`` to context ``c``; return (end point, end direction)."""
    toks = _TOKEN.findall(d)
    i, cmd = 0, "M"
    x = y = sx = sy = 0.0
    direction = (0.0, -1.0)

    def num():
        nonlocal i
        v = float(toks[i])
        i += 1
        return v

    while i < len(toks):
        if toks[i].isalpha():
            cmd = toks[i]
            i += 1
        op, rel = cmd.upper(), cmd.islower()
        if op == "Z":
            c.close_path()
            x, y = sx, sy
            continue
        ox, oy = (x, y) if rel else (0.0, 0.0)
        if op == "M":
            x, y = ox + num(), oy + num()
            sx, sy = x, y
            c.move_to(x, y)
            cmd = "l" if rel else "L"        # implicit lineto after moveto
        elif op == "L":
            nx, ny = ox + num(), oy + num()
            direction, x, y = (nx - x, ny - y), nx, ny
            c.line_to(x, y)
        elif op == "H":
            nx = ox + num()
            direction, x = (nx - x, 0.0), nx
            c.line_to(x, y)
        elif op == "V":
            ny = oy + num()
            direction, y = (0.0, ny - y), ny
            c.line_to(x, y)
        elif op == "C":
            x1, y1, x2, y2 = ox + num(), oy + num(), ox + num(), oy + num()
            nx, ny = ox + num(), oy + num()
            c.curve_to(x1, y1, x2, y2, nx, ny)
            direction, x, y = (nx - x2, ny - y2), nx, ny
        elif op == "Q":
            qx, qy, nx, ny = ox + num(), oy + num(), ox + num(), oy + num()
            c.curve_to(x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                       nx + 2 / 3 * (qx - nx), ny + 2 / 3 * (qy - ny), nx, ny)
            direction, x, y = (nx - qx, ny - qy), nx, ny
        else:
            raise ValueError("unsupported path command %r" % cmd)
    return (x, y), direction


# --------------------------------------------------------------------------
# Sign shapes. Each has trace(ctx, inset): the outline shrunk by ``inset``.

class Poly:
    """Convex polygon with rounded corners (radius r)."""

    def __init__(self, pts, r=0.0):
        area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]))
        self.pts = pts if area > 0 else pts[::-1]      # clockwise on screen
        self.r = r

    def _offset(self, d):
        n, out = len(self.pts), []
        lines = []
        for k in range(n):
            (x1, y1), (x2, y2) = self.pts[k], self.pts[(k + 1) % n]
            L = math.hypot(x2 - x1, y2 - y1)
            ix, iy = -(y2 - y1) / L, (x2 - x1) / L         # inward normal
            lines.append(((x1 + ix * d, y1 + iy * d), ((x2 - x1) / L, (y2 - y1) / L)))
        for k in range(n):
            (px, py), (ux, uy) = lines[k - 1]
            (qx, qy), (vx, vy) = lines[k]
            den = ux * vy - uy * vx
            t = ((qx - px) * vy - (qy - py) * vx) / den
            out.append((px + ux * t, py + uy * t))
        return out

    def trace(self, c, inset=0.0):
        r = max(self.r - inset, 0.0)
        q = self._offset(inset + r)
        n = len(q)
        c.new_path()
        for k in range(n):
            (ax, ay), (bx, by), (cx, cy) = q[k - 1], q[k], q[(k + 1) % n]
            if r > 0:
                # outward normal of a clockwise (on screen) edge (dx, dy) is (dy, -dx)
                a1 = math.atan2(-(bx - ax), by - ay)
                a2 = math.atan2(-(cx - bx), cy - by)
                while a2 < a1:
                    a2 += 2 * math.pi
                c.arc(bx, by, r, a1, a2)
            else:
                c.line_to(bx, by)
        c.close_path()


class Circle:
    def __init__(self, cx, cy, radius):
        self.cx, self.cy, self.radius = cx, cy, radius

    def trace(self, c, inset=0.0):
        c.new_path()
        c.arc(self.cx, self.cy, self.radius - inset, 0, 2 * math.pi)


class Outline:
    """Any closed SVG path; insets are approximated by scaling about (cx, cy)."""

    def __init__(self, d, cx, cy, size):
        self.d, self.cx, self.cy, self.size = d, cx, cy, size

    def trace(self, c, inset=0.0):
        k = 1 - 2 * inset / self.size
        c.new_path()
        c.save()
        c.translate(self.cx, self.cy)
        c.scale(k, k)
        c.translate(-self.cx, -self.cy)
        trace(c, self.d)
        c.restore()


def rect(x, y, w, h, r=0.0):
    return Poly([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], r)


def octagon(w, x=0.0, y=0.0, r=0.0):
    a = w / (2 + math.sqrt(2))
    return Poly([(x + a, y), (x + w - a, y), (x + w, y + a), (x + w, y + w - a),
                 (x + w - a, y + w), (x + a, y + w), (x, y + w - a), (x, y + a)], r)


def diamond(w, x=0.0, y=0.0, r=0.0):
    return Poly([(x + w / 2, y), (x + w, y + w / 2), (x + w / 2, y + w), (x, y + w / 2)], r)


def triangle_down(w, x=0.0, y=0.0, r=0.0):
    return Poly([(x, y), (x + w, y), (x + w / 2, y + w * math.sqrt(3) / 2)], r)


def triangle_up(w, x=0.0, y=0.0, r=0.0):
    h = w * math.sqrt(3) / 2
    return Poly([(x + w / 2, y), (x + w, y + h), (x, y + h)], r)


def pentagon(w, h, shoulder, r=0.0):
    """School pentagon: point up, vertical sides below ``shoulder``."""
    return Poly([(w / 2, 0), (w, shoulder), (w, h), (0, h), (0, shoulder)], r)


def pennant(w, h, r=0.0):
    """Isosceles triangle pointing right (No Passing Zone)."""
    return Poly([(0, 0), (w, h / 2), (0, h)], r)


# --------------------------------------------------------------------------
# Drawing items. Each constructor returns a function of a Pen.

def _fill(p, color):
    p.c.set_source_rgb(*color)
    p.c.fill()


def FACE(shape, bg, border=None, margin=0.0, bw=0.0, ink=BLACK):
    """Sign face: background, optional border band ``bw`` wide, ``margin`` in."""
    def draw(p):
        shape.trace(p.c, 0)
        _fill(p, bg)
        if border is not None:
            shape.trace(p.c, margin)
            _fill(p, border)
            shape.trace(p.c, margin + bw)
            _fill(p, bg)
        p.ink, p.bg = ink, bg
    return draw


def T(s, cx, cy, cap, color=None, maxw=None, font=FONT):
    """Text centred on (cx, cy) with capital height ``cap``; condensed/shrunk
    to fit ``maxw`` when given."""
    def draw(p):
        c = p.c
        c.save()
        c.select_font_face(font, cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
        size = cap / CAP
        c.set_font_size(size)
        xb, _, tw, _, _, _ = c.text_extents(s)
        sx, k = 1.0, 1.0
        if maxw and tw > maxw:
            sx = maxw / tw
            if sx < 0.8:                      # condense at most 20 %, then shrink
                k, sx = sx / 0.8, 0.8
        c.translate(cx, cy + cap * k / 2)
        c.scale(sx * k, k)
        c.move_to(-(xb + tw / 2), 0)
        c.text_path(s)
        c.restore()
        _fill(p, color or p.ink)
    return draw


def LINES(texts, cx, y0, dy, cap, maxw=None, color=None):
    """Several centred lines of text, first centred at y0, spaced dy."""
    return [T(s, cx, y0 + k * dy, cap, color, maxw) for k, s in enumerate(texts)]


def F(d, color=None):
    """Filled SVG path."""
    def draw(p):
        p.c.new_path()
        trace(p.c, d)
        _fill(p, color or p.ink)
    return draw


def S(d, w, color=None, cap=BUTT, join=MJOIN):
    """Stroked SVG path of width ``w``."""
    def draw(p):
        c = p.c
        c.new_path()
        trace(c, d)
        c.set_line_width(w)
        c.set_line_cap(cap)
        c.set_line_join(join)
        c.set_source_rgb(*(color or p.ink))
        c.stroke()
    return draw


def ARROWHEAD(x, y, dx, dy, hw, hl, color=None):
    """Triangle with its base centred on (x, y), pointing along (dx, dy)."""
    def draw(p):
        L = math.hypot(dx, dy)
        ux, uy = dx / L, dy / L
        px, py = -uy, ux
        bx, by = x - ux * 0.05, y - uy * 0.05        # overlap the shaft a hair
        c = p.c
        c.new_path()
        c.move_to(bx + px * hw / 2, by + py * hw / 2)
        c.line_to(x + ux * hl, y + uy * hl)
        c.line_to(bx - px * hw / 2, by - py * hw / 2)
        c.close_path()
        _fill(p, color or p.ink)
    return draw


def A(d, w, hw=None, hl=None, color=None, join=MJOIN):
    """Arrow: path ``d`` stroked ``w`` wide, arrowhead at its end."""
    hw = hw or 2.5 * w
    hl = hl or 1.5 * w

    def draw(p):
        c = p.c
        c.new_path()
        (x, y), (dx, dy) = trace(c, d)
        c.set_line_width(w)
        c.set_line_cap(BUTT)
        c.set_line_join(join)
        c.set_source_rgb(*(color or p.ink))
        c.stroke()
        ARROWHEAD(x, y, dx, dy, hw, hl, color)(p)
    return draw


def DOT(cx, cy, r, color=None):
    def draw(p):
        p.c.new_path()
        p.c.arc(cx, cy, r, 0, 2 * math.pi)
        _fill(p, color or p.ink)
    return draw


def ELLIPSE(cx, cy, rx, ry, rot=0.0, color=None):
    def draw(p):
        c = p.c
        c.save()
        c.translate(cx, cy)
        c.rotate(math.radians(rot))
        c.scale(rx, ry)
        c.new_path()
        c.arc(0, 0, 1, 0, 2 * math.pi)
        c.restore()
        _fill(p, color or p.ink)
    return draw


def RING(cx, cy, r, w, color=None):
    def draw(p):
        c = p.c
        c.new_path()
        c.arc(cx, cy, r, 0, 2 * math.pi)
        c.set_line_width(w)
        c.set_source_rgb(*(color or p.ink))
        c.stroke()
    return draw


def SHAPE(shape, color, inset=0.0):
    """Fill one of the sign shapes (e.g. a small octagon inside a symbol)."""
    def draw(p):
        shape.trace(p.c, inset)
        _fill(p, color)
    return draw


def G(items, dx=0.0, dy=0.0, s=1.0, rot=0.0, flip=False, ink=None):
    """Group: draw ``items`` translated, rotated (degrees), scaled, mirrored;
    ``ink`` overrides the legend colour inside the group."""
    sx, sy = (s, s) if not isinstance(s, tuple) else s

    def draw(p):
        c = p.c
        c.save()
        c.translate(dx, dy)
        c.rotate(math.radians(rot))
        c.scale(-sx if flip else sx, sy)
        saved = p.ink
        p.ink = ink or p.ink
        for item in items:
            item(p)
        p.ink = saved
        c.restore()
    return draw


def PROHIBIT(cx, cy, r, w):
    """Red circle and slash (upper left to lower right), drawn over a symbol."""
    k = (r - w / 2) / math.sqrt(2)
    return [RING(cx, cy, r - w / 2, w, RED),
            S("M %f %f L %f %f" % (cx - k, cy - k, cx + k, cy + k), w, RED)]


def ROUNDABOUT(cx, cy, r, w):
    """Three curved arrows circulating counter-clockwise."""
    def draw(p):
        c = p.c
        for k in range(3):
            a0 = math.radians(-90 + 120 * k + 35)        # start of this arc
            a1 = a0 - math.radians(68)                   # end (counter-clockwise)
            c.new_path()
            c.arc_negative(cx, cy, r, a0, a1)
            c.set_line_width(w)
            c.set_line_cap(BUTT)
            c.set_source_rgb(*p.ink)
            c.stroke()
            ex, ey = cx + r * math.cos(a1), cy + r * math.sin(a1)
            ARROWHEAD(ex, ey, math.sin(a1), -math.cos(a1), 2.6 * w, 1.6 * w)(p)
    return draw


# --------------------------------------------------------------------------
# Pictograms, in their own unit coordinates; place them with G().

def walker():
    """Walking person facing right, 10 units tall, feet at y = 0."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [DOT(0.55, -9.05, 0.95),
            S("M 0.35 -7.5 L -0.05 -4.4", 1.9, **limb),           # torso
            S("M 0.25 -7.2 L 1.35 -5.5 L 2.0 -4.1", 0.8, **limb),  # front arm
            S("M 0.15 -7.2 L -1.0 -5.7 L -1.8 -4.7", 0.8, **limb), # back arm
            S("M 0.0 -4.5 L 1.25 -2.4 L 2.1 -0.3", 1.05, **limb),  # front leg
            S("M -0.1 -4.5 L -0.75 -2.3 L -2.2 -0.4", 1.05, **limb)]  # back leg


def truck():
    """Truck side view facing right, 10 x 5 units, top-left at (0, 0)."""
    return [F("M 0 0 H 6.6 V 3.6 H 0 Z"),                              # box
            F("M 6.9 1.1 H 8.5 L 9.9 2.5 V 3.6 H 6.9 Z"),              # cab
            F("M 0 3.3 H 9.9 V 3.8 H 0 Z"),                            # frame
            DOT(1.3, 4.3, 0.8), DOT(3.1, 4.3, 0.8), DOT(8.4, 4.3, 0.8)]


def bicycle():
    """Bicycle with rider, facing right, about 12 x 13 units."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [RING(2.6, 10.4, 2.35, 0.65), RING(10.6, 10.4, 2.35, 0.65),
            S("M 2.6 10.4 L 4.9 6.2 L 6.4 10.4 Z M 4.9 6.2 L 9.3 6.2 L 6.4 10.4 "
              "M 9.0 5.0 L 10.6 10.4", 0.55, **limb),
            S("M 4.3 5.9 H 5.6 M 8.6 4.7 L 9.8 4.3", 0.6, **limb),      # seat, bars
            DOT(8.3, 0.95, 0.95),                                        # head
            S("M 5.0 5.6 L 7.6 2.5", 1.5, **limb),                       # torso
            S("M 7.5 2.8 L 9.4 4.6", 0.7, **limb),                       # arm
            S("M 5.1 5.6 L 7.5 7.6 L 6.6 10.0", 0.85, **limb)]           # leg


def deer():
    """Leaping deer facing right, about 18 x 15 units."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [ELLIPSE(9.0, 8.6, 5.0, 2.3, -14),                            # body
            S("M 12.2 7.6 L 14.7 4.3", 2.1, **limb),                      # neck
            ELLIPSE(15.6, 3.8, 1.7, 0.9, 28),                             # head
            S("M 14.6 3.3 L 13.8 2.3", 0.55, **limb),                     # ear
            S("M 15.0 3.0 L 14.5 1.0 L 13.3 0.1 M 14.7 1.7 L 15.9 0.5 "
              "M 14.3 1.1 L 12.9 1.4", 0.45, **limb),                     # antlers
            S("M 12.8 9.3 L 15.6 10.4 L 17.6 10.0", 0.85, **limb),        # front legs
            S("M 12.3 9.8 L 14.9 11.5 L 16.5 11.9", 0.85, **limb),
            S("M 5.2 9.8 L 2.9 11.2 L 1.3 12.8", 0.95, **limb),           # hind legs
            S("M 5.8 10.4 L 3.7 12.3 L 2.9 14.0", 0.85, **limb),
            S("M 4.6 8.3 L 3.5 7.4", 0.8, **limb)]                        # tail


def flagger():
    """Flagger holding a flag out to the right, 10 units tall, feet at y = 0."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [DOT(0.0, -9.0, 0.95),
            S("M 0 -7.6 L 0 -4.3", 2.0, **limb),                          # torso
            S("M -0.45 -4.5 L -0.7 -0.3 M 0.45 -4.5 L 0.9 -0.3", 1.0, **limb),
            S("M -0.5 -7.2 L -1.1 -4.7", 0.8, **limb),                    # arm down
            S("M 0.5 -7.2 L 3.2 -6.4", 0.8, **limb),                      # arm out
            S("M 3.1 -6.9 L 3.5 -3.0", 0.3, **limb),                      # staff
            F("M 3.45 -6.9 L 6.0 -6.4 L 5.7 -4.0 L 3.3 -4.3 Z")]          # flag


def worker():
    """Worker digging with a shovel beside a pile, 10 units tall, feet at 0."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [DOT(-1.1, -7.9, 0.95),
            S("M -0.5 -6.7 L 1.3 -4.1", 2.0, **limb),                     # torso
            S("M 1.2 -4.2 L 0.6 -2.2 L 1.0 -0.2 M 1.5 -4.2 L 2.7 -2.2 L 2.9 -0.2",
              1.0, **limb),                                               # legs
            S("M -0.3 -6.2 L -1.5 -4.7 L -2.4 -4.2", 0.8, **limb),        # arms
            S("M 0.2 -5.8 L -0.6 -4.1 L -1.2 -3.1", 0.8, **limb),
            S("M -0.2 -6.0 L -3.4 -1.4", 0.4, **limb),                    # handle
            F("M -3.9 -1.9 L -2.8 -1.1 L -3.6 0 L -4.6 -0.8 Z"),          # blade
            F("M -7.4 0 C -6.9 -2.4 -5.1 -2.6 -4.3 0 Z")]                 # pile


def wheelchair():
    """International Symbol of Access, facing right, about 8 x 9.5 units."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [DOT(2.9, 0.95, 0.95),
            S("M 2.7 2.7 L 2.9 5.9 L 5.9 5.9 L 7.1 8.9", 1.0, **limb),
            S("M 2.8 4.1 H 5.2", 0.8, **limb),
            RING(3.4, 6.9, 2.4, 0.75)]


def car_rear():
    """Car seen from behind, centred on (0, 0), about 8 x 6 units."""
    return [F("M -2.6 -3.4 H 2.6 L 3.4 -1.2 H -3.4 Z"),
            F("M -2.05 -2.9 H 2.05 L 2.6 -1.6 H -2.6 Z", color=YELLOW),   # window
            SHAPE(rect(-4, -1.4, 8, 2.8, 0.5), BLACK),
            F("M -3.7 1.0 H -2.2 V 2.6 H -3.7 Z M 2.2 1.0 H 3.7 V 2.6 H 2.2 Z")]


def traffic_signal(x, y, w, h):
    r = w * 0.34
    return [SHAPE(rect(x, y, w, h, w * 0.2), BLACK),
            DOT(x + w / 2, y + h * 0.19, r, RED),
            DOT(x + w / 2, y + h * 0.5, r, SIGNAL_YELLOW),
            DOT(x + w / 2, y + h * 0.81, r, SIGNAL_GREEN)]


# --------------------------------------------------------------------------
# Sign families

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


def prohibition(*symbol, size=24):
    return regulatory(size, size, *symbol, *PROHIBIT(size / 2, size / 2, size * 0.43, size * 0.085))


def stop_face(x=0.0, y=0.0, w=30.0):
    k = w / 30
    return [FACE(octagon(w, x, y, 0.9 * k), RED, WHITE, 0.5 * k, 0.75 * k, ink=WHITE),
            T("STOP", x + w / 2, y + w / 2, 10 * k, WHITE, maxw=23.5 * k)]


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


# --------------------------------------------------------------------------
# The table: id -> (width, height, items)

SIGNS = {}


def sign(sign_id, spec):
    assert sign_id not in SIGNS, sign_id
    SIGNS[sign_id] = spec


# --- Regulatory -----------------------------------------------------------
sign("stop", (30, 30, stop_face()))
sign("stop-all-way", (30, 37.5, stop_face() + [
    FACE(rect(6, 31.5, 18, 6, 0.75), RED, WHITE, 0.3, 0.5, ink=WHITE),
    T("ALL WAY", 15, 34.5, 3.0, WHITE, maxw=15)]))
sign("yield", (36, 36 * math.sqrt(3) / 2, [
    SHAPE(triangle_down(36, r=1.8), RED),
    SHAPE(triangle_down(36, r=1.8), WHITE, inset=4.4),
    T("YIELD", 18, 9.0, 3.7, RED, maxw=13.5)]))
sign("do-not-enter", (30, 30, [
    FACE(rect(0, 0, 30, 30, 1.8), WHITE),
    DOT(15, 15, 14.0, RED),
    F("M 5 13 H 25 V 17 H 5 Z", WHITE),
    T("DO NOT", 15, 9.0, 3.2, WHITE, maxw=17),
    T("ENTER", 15, 21.0, 3.2, WHITE, maxw=17)]))
sign("wrong-way", (36, 24, [
    FACE(rect(0, 0, 36, 24, 1.5), RED, WHITE, 0.5, 0.75, ink=WHITE),
    *LINES(["WRONG", "WAY"], 18, 7.6, 8.8, 5.6, maxw=30)]))
sign("speed-limit-35", regulatory(24, 30,
    T("SPEED", 12, 5.6, 3.6, maxw=19), T("LIMIT", 12, 10.8, 3.6, maxw=19),
    T("35", 12, 20.4, 9.6, maxw=17)))
sign("one-way", (36, 12, [
    FACE(rect(0, 0, 36, 12, 1.0), BLACK, WHITE, 0.35, 0.5, ink=WHITE),
    F("M 3 3.8 H 26.5 V 1.7 L 33.5 6 L 26.5 10.3 V 8.2 H 3 Z", WHITE),
    T("ONE WAY", 14.6, 6, 2.9, BLACK, maxw=21)]))
sign("no-u-turn", prohibition(
    A("M 15.3 18.8 V 11.5 C 15.3 5.9 8.7 5.9 8.7 11.5 V 12.6", 2.1, hw=5.4, hl=3.4)))
sign("no-left-turn", prohibition(
    A("M 14.6 19.5 V 11.2 H 10.6", 2.3, hw=5.6, hl=3.6)))
sign("no-right-turn", prohibition(
    A("M 9.4 19.5 V 11.2 H 13.4", 2.3, hw=5.6, hl=3.6)))
sign("no-turn-on-red", word_regulatory("NO", "TURN", "ON", "RED", cap=4.0))
sign("keep-right", regulatory(24, 30,
    F("M 7.2 17.8 C 7.2 15.6 10.8 15.6 10.8 17.8 V 26.0 H 7.2 Z"),            # island
    A("M 9.0 3.5 V 6.5 C 9.0 10.5 15.2 10.5 15.2 14.5 V 20.0", 2.2, hw=5.6, hl=3.6)))
sign("do-not-pass", word_regulatory("DO", "NOT", "PASS", cap=4.4))
sign("pass-with-care", word_regulatory("PASS", "WITH", "CARE", cap=4.4))
sign("slower-traffic-keep-right", word_regulatory("SLOWER", "TRAFFIC", "KEEP", "RIGHT", cap=3.4))
sign("no-parking", prohibition(T("P", 12, 12, 11.5)))
sign("no-trucks", prohibition(G(truck(), 5.6, 9.6, 1.3)))
sign("no-pedestrian-crossing", prohibition(G(walker(), 12, 20.6, 1.55)))
sign("left-turn-yield-on-green", regulatory(30, 36,
    T("LEFT TURN", 15, 6.0, 3.8, maxw=25), T("YIELD", 15, 12.4, 3.8, maxw=25),
    T("ON", 15, 18.8, 3.8, maxw=25), DOT(15, 27.6, 5.2, SIGNAL_GREEN)))
sign("accessible-parking", (12, 18, [
    FACE(rect(0, 0, 12, 18, 0.75), WHITE, GREEN, 0.25, 0.4, ink=GREEN),
    T("RESERVED", 6, 2.8, 1.35, maxw=10), T("PARKING", 6, 5.2, 1.35, maxw=10),
    SHAPE(rect(2.2, 7.4, 7.6, 7.6, 0.4), BLUE),
    G(wheelchair(), 2.9, 8.0, 0.66, ink=WHITE)]))

# --- Warning (yellow diamond) ---------------------------------------------
sign("curve-right", warning(A("M 12.3 23.8 V 17.5 C 12.3 13.0 14.0 11.0 17.2 8.8", 2.5)))
sign("sharp-turn-right", warning(A("M 12.5 23.5 V 13.0 H 17.5", 2.5)))
sign("reverse-curve", warning(
    A("M 12.0 24.0 C 12.0 19.3 18.2 19.4 18.2 14.8 C 18.2 11.6 14.2 11.6 13.6 8.8", 2.3)))
sign("winding-road", warning(
    A("M 12.6 24.2 C 12.6 21.6 17.4 21.8 17.4 19.0 C 17.4 16.3 12.6 16.5 12.6 13.8 "
      "C 12.6 11.2 17.0 11.3 17.0 8.8", 2.1)))
sign("crossroad", warning(S("M 15 6.3 V 23.7 M 6.3 15 H 23.7", 3.0)))
sign("side-road-right", warning(S("M 13.4 6.4 V 23.6 M 13.4 15 H 22.6", 3.0)))
sign("t-intersection", warning(S("M 15 23.6 V 11.5 M 6.9 11.5 H 23.1", 3.0)))
sign("y-intersection", warning(S("M 15 23.8 V 15.2 L 9.8 8.6 M 15 15.2 L 20.2 8.6", 3.0)))
sign("roundabout-ahead", warning(ROUNDABOUT(15, 15, 5.6, 1.9)))
sign("stop-ahead", warning(
    A("M 15 25.2 V 17.2", 2.4, hw=6, hl=3.6),
    SHAPE(octagon(7.6, 11.2, 4.9), RED),
    SHAPE(octagon(7.6, 11.2, 4.9), WHITE, inset=0.35),
    SHAPE(octagon(7.6, 11.2, 4.9), RED, inset=0.75)))
sign("yield-ahead", warning(
    A("M 15 25.2 V 18.6", 2.4, hw=6, hl=3.6),
    SHAPE(triangle_down(8.6, 10.7, 6.2, 0.3), RED),
    SHAPE(triangle_down(8.6, 10.7, 6.2, 0.3), WHITE, inset=1.25)))
sign("signal-ahead", warning(*traffic_signal(12.2, 6.6, 5.6, 16.8)))
sign("merge", warning(
    A("M 12.8 24.6 V 10.2", 2.4, hw=6, hl=3.6),
    S("M 19.2 22.8 C 19.2 18.6 13.8 18.4 13.4 15.0", 1.8)))
sign("lane-ends", warning(
    S("M 11.0 23.4 V 7.6", 2.2),
    S("M 19.0 23.4 V 17.6 L 15.2 12.4 V 7.6", 2.2)))
sign("added-lane", warning(
    A("M 12.4 24.4 V 10.4", 2.3, hw=5.6, hl=3.4),
    A("M 20.6 22.4 C 20.6 18.4 17.8 18.2 17.8 15.0 V 11.6", 2.0, hw=5.0, hl=3.0)))
sign("narrow-bridge", warning(
    S("M 10.2 21.6 L 12.4 18.8 V 11.2 L 10.2 8.4", 2.2),
    S("M 19.8 21.6 L 17.6 18.8 V 11.2 L 19.8 8.4", 2.2)))
sign("divided-highway-begins", warning(
    S("M 12.6 24.0 V 17.6 C 12.6 15.6 10.6 14.4 10.6 12.4 V 8.0", 2.0),
    S("M 17.4 24.0 V 17.6 C 17.4 15.6 19.4 14.4 19.4 12.4 V 8.0", 2.0),
    F("M 13.7 8.0 V 14.0 C 13.7 15.8 16.3 15.8 16.3 14.0 V 8.0 Z")))
sign("divided-highway-ends", warning(
    S("M 12.6 6.0 V 12.4 C 12.6 14.4 10.6 15.6 10.6 17.6 V 22.0", 2.0),
    S("M 17.4 6.0 V 12.4 C 17.4 14.4 19.4 15.6 19.4 17.6 V 22.0", 2.0),
    F("M 13.7 22.0 V 16.0 C 13.7 14.2 16.3 14.2 16.3 16.0 V 22.0 Z")))
sign("two-way-traffic", warning(
    A("M 12.6 8.6 V 19.2", 2.0, hw=5.0, hl=3.2),
    A("M 17.4 21.4 V 10.8", 2.0, hw=5.0, hl=3.2)))
sign("hill", warning(
    F("M 7.6 15.6 L 22.2 21.2 L 7.6 21.2 Z"),
    G(truck(), 10.2, 11.1, 1.0, rot=21)))
sign("slippery-when-wet", warning(
    G(car_rear(), 15, 10.6, 0.95, rot=-12),
    S("M 12.0 14.2 C 10.2 16.2 13.6 17.8 11.8 20.2 C 11.2 21.0 11.6 21.8 12.6 22.8", 0.9),
    S("M 17.6 13.0 C 15.8 15.6 19.4 17.0 17.6 19.6 C 17.0 20.6 17.4 21.4 18.4 22.6", 0.9)))
sign("pedestrian-crossing", warning(G(walker(), 15.3, 23.0, 1.62, flip=True)))
sign("bicycle-crossing", warning(G(bicycle(), 8.1, 8.6, 1.05)))
sign("deer-crossing", warning(G(deer(), 7.0, 8.2, 0.9)))
sign("truck-crossing", warning(G(truck(), 7.1, 11.6, 1.58)))
sign("low-clearance", warning(
    T("12'-6\"", 15, 15, 4.6, maxw=17),
    F("M 15 6.4 L 18.2 10.6 H 11.8 Z"),
    F("M 15 23.6 L 18.2 19.4 H 11.8 Z")))
sign("no-passing-zone", (44.5, 36, [
    FACE(pennant(44.5, 36, r=1.8), YELLOW, BLACK, 0.6, 0.9),
    T("NO", 11.5, 11.4, 3.9, maxw=13), T("PASSING", 13.2, 18.0, 3.9, maxw=20),
    T("ZONE", 11.5, 24.6, 3.9, maxw=13)]))
sign("slow-moving-vehicle", (16, 16 * math.sqrt(3) / 2, [
    SHAPE(triangle_up(16, r=0.6), RED),
    SHAPE(triangle_up(16, r=0.6), ORANGE, inset=1.75)]))

# --- School ---------------------------------------------------------------
sign("school-zone", (36, 36, [
    FACE(pentagon(36, 36, 14.5, r=1.8), FYG, BLACK, 0.6, 0.9),
    G(walker(), 14.0, 31.0, 1.55, flip=True),
    G(walker(), 23.0, 31.0, 1.28, flip=True)]))
sign("school-bus-stop-ahead", warning(
    *dia_lines(["SCHOOL", "BUS", "STOP", "AHEAD"], 2.7, 3.9), bg=FYG))
sign("school-speed-limit", (24, 48, [
    FACE(rect(0, 0, 24, 48, 1.5), WHITE, BLACK, 0.5, 0.75),
    F("M 1.25 1.25 H 22.75 V 10.2 H 1.25 Z", FYG),
    S("M 1.25 10.2 H 22.75", 0.6),
    T("SCHOOL", 12, 5.8, 3.6, maxw=19),
    T("SPEED", 12, 14.4, 3.6, maxw=19), T("LIMIT", 12, 19.6, 3.6, maxw=19),
    T("20", 12, 29.2, 9.6, maxw=17),
    T("WHEN", 12, 38.6, 2.9, maxw=19), T("FLASHING", 12, 43.0, 2.9, maxw=19)]))

# --- Railroad -------------------------------------------------------------
sign("railroad-crossbuck", (XBUCK, XBUCK, crossbuck(XBUCK / 2, XBUCK / 2)))
sign("railroad-advance-warning", (36, 36, [
    FACE(Circle(18, 18, 18), YELLOW, BLACK, 0.6, 0.9),
    S("M 9.8 9.8 L 26.2 26.2 M 26.2 9.8 L 9.8 26.2", 2.9),
    T("R", 8.6, 18, 6.4), T("R", 27.4, 18, 6.4)]))
sign("railroad-tracks-count", (XBUCK, XBUCK + 15, crossbuck(XBUCK / 2, XBUCK / 2) + [
    FACE(rect(XBUCK / 2 - 13.5, XBUCK + 2.5, 27, 12.5, 0.75), WHITE, BLACK, 0.3, 0.6),
    T("2 TRACKS", XBUCK / 2, XBUCK + 8.75, 5.0, maxw=23)]))

# --- Work zone (orange) ---------------------------------------------------
sign("road-work-ahead", warning(*dia_lines(["ROAD", "WORK", "AHEAD"], 3.4, 4.9), bg=ORANGE))
sign("flagger-ahead", warning(G(flagger(), 12.8, 23.2, 1.6), bg=ORANGE))
sign("workers-ahead", warning(G(worker(), 17.3, 21.0, 1.3), bg=ORANGE))
sign("one-lane-road-ahead", warning(*dia_lines(["ONE LANE", "ROAD", "AHEAD"], 3.0, 4.6),
                                    bg=ORANGE))
sign("detour", (30, 24, [
    FACE(rect(0, 0, 30, 24, 1.5), ORANGE, BLACK, 0.5, 0.75),
    T("DETOUR", 15, 7.6, 5.2, maxw=24),
    A("M 5.5 17 H 19.5", 3.0, hw=8.0, hl=5.0)]))

# --- Guide / services -----------------------------------------------------
sign("interstate-route", (24, 24, [
    SHAPE(Outline(INTERSTATE, 12, 12.8, 22), WHITE),
    SHAPE(Outline(INTERSTATE, 12, 12.8, 22), BLUE, inset=1.1),
    interstate_red_band,
    S("M 1.5 8.2 H 22.5", 0.7, WHITE),
    T("INTERSTATE", 12, 5.7, 1.45, WHITE, maxw=13.5),
    T("95", 12, 14.8, 8.0, WHITE, maxw=15)]))
sign("us-route", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLACK),
    SHAPE(Outline(US_SHIELD, 12, 12.4, 22), WHITE),
    T("1", 12, 12.0, 9.0, BLACK)]))
sign("hospital", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    T("H", 12, 12, 14.5)]))
sign("gas-station", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    SHAPE(rect(6.4, 4.6, 8.2, 15.2, 0.7), WHITE),
    SHAPE(rect(7.9, 6.3, 5.2, 4.4, 0.3), BLUE),
    F("M 5.4 19.0 H 15.6 V 20.6 H 5.4 Z"),
    S("M 14.6 15.6 H 16.4 C 17.3 15.6 17.8 15.1 17.8 14.2 V 8.6 L 16.2 6.8", 1.0,
      cap=ROUND, join=RJOIN),
    F("M 15.4 5.6 L 17.4 7.4 L 16.6 8.1 L 14.8 6.4 Z")]))
sign("rest-area", (48, 30, [
    FACE(rect(0, 0, 48, 30, 2.0), GREEN, WHITE, 0.6, 0.9, ink=WHITE),
    T("REST AREA", 24, 9.4, 5.4, maxw=38),
    A("M 20.6 25.6 L 27.4 18.8", 2.6, hw=7.0, hl=4.2)]))


# --------------------------------------------------------------------------
# Rendering

def render(sign_id, path):
    w, h, items = SIGNS[sign_id]
    s = (LONG_SIDE - 2 * PAD) / max(w, h)
    W, H = round(w * s) + 2 * PAD, round(h * s) + 2 * PAD
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, W, H)
    ctx = cairo.Context(surface)
    ctx.translate(PAD, PAD)
    ctx.scale(s, s)
    pen = Pen(ctx)
    for item in items:
        item(pen)
    surface.write_to_png(path)


def shrink(path):
    """Palette-quantise with pngquant and recompress with optipng, if present."""
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--speed", "1",
                        "--output", path, "64", path], check=False)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o2", path], check=False)


def contact_sheet(ids, out_dir, sheet_path, cell=150, cols=8):
    rows = (len(ids) + cols - 1) // cols
    sheet = cairo.ImageSurface(cairo.FORMAT_RGB24, cols * cell, rows * (cell + 16))
    c = cairo.Context(sheet)
    c.set_source_rgb(0.82, 0.84, 0.86)                 # grey shows transparency
    c.paint()
    for n, sid in enumerate(ids):
        img = cairo.ImageSurface.create_from_png(os.path.join(out_dir, sid + ".png"))
        k = (cell - 10) / max(img.get_width(), img.get_height())
        x0, y0 = (n % cols) * cell, (n // cols) * (cell + 16)
        c.save()
        c.translate(x0 + (cell - img.get_width() * k) / 2, y0 + 4 + (cell - 10 - img.get_height() * k) / 2)
        c.scale(k, k)
        c.set_source_surface(img, 0, 0)
        c.paint()
        c.restore()
        c.set_source_rgb(0, 0, 0)
        c.select_font_face(FONT)
        c.set_font_size(10)
        c.move_to(x0 + 4, y0 + cell + 10)
        c.show_text(sid)
    sheet.write_to_png(sheet_path)


def main(argv):
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    out_dir = os.path.join(root, "Banks", "signs")
    sheet = None
    if "--sheet" in argv:
        k = argv.index("--sheet")
        sheet = argv[k + 1]
        argv = argv[:k] + argv[k + 2:]
    ids = argv or list(SIGNS)
    unknown = [i for i in ids if i not in SIGNS]
    if unknown:
        sys.exit("unknown sign id(s): " + ", ".join(unknown))
    os.makedirs(out_dir, exist_ok=True)
    for sid in ids:
        path = os.path.join(out_dir, sid + ".png")
        render(sid, path)
        shrink(path)
        print("%-28s %6d bytes" % (sid, os.path.getsize(path)))
    if sheet:
        contact_sheet(ids, out_dir, sheet)
        print("contact sheet:", sheet)


if __name__ == "__main__":
    main(sys.argv[1:])
