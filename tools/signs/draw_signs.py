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
    (each PNG is then a small palette image, roughly 3-15 KB). Without them
    the script still works; files are plain RGB and somewhat larger.

Coordinates: each sign is described in inches, roughly at its MUTCD size
(a warning diamond is 30 x 30, a Speed Limit sign 24 x 30), origin at the
top-left corner of the sign's bounding box, y growing downward. The picture
is scaled so its long side is 512 px and flattened onto an opaque light-grey
card with a small margin (Telegram recompresses photos to JPEG, where a
transparent background would turn black).
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
PAD = 14                          # px of background margin around the sign
CARD = hexrgb("#F3F4F6")          # opaque light-grey background behind the sign

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


def T(s, cx, cy, cap, color=None, maxw=None, font=FONT, align="c"):
    """Text centred on (cx, cy) with capital height ``cap``; condensed/shrunk
    to fit ``maxw`` when given. ``align`` "l"/"r": cx is the left/right edge."""
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
        c.move_to({"c": -(xb + tw / 2), "l": -xb, "r": -(xb + tw)}[align], 0)
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


def BGDOT(cx, cy, r):
    """A dot in the sign's background colour (wheel hubs, windows)."""
    def draw(p):
        p.c.new_path()
        p.c.arc(cx, cy, r, 0, 2 * math.pi)
        _fill(p, p.bg)
    return draw


def BGQUAD(x1, y1, x2, y2, x3, y3, x4, y4):
    """A four-sided patch in the sign's background colour (a window)."""
    def draw(p):
        c = p.c
        c.new_path()
        c.move_to(x1, y1)
        c.line_to(x2, y2)
        c.line_to(x3, y3)
        c.line_to(x4, y4)
        c.close_path()
        _fill(p, p.bg)
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


def bike():
    """Bicycle alone, facing right, about 13 x 13 units (wheels at y = 10.4)."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [RING(2.6, 10.4, 2.35, 0.65), RING(10.6, 10.4, 2.35, 0.65),
            S("M 2.6 10.4 L 4.9 6.2 L 6.4 10.4 Z M 4.9 6.2 L 9.3 6.2 L 6.4 10.4 "
              "M 9.0 5.0 L 10.6 10.4", 0.55, **limb),
            S("M 4.3 5.9 H 5.6 M 8.6 4.7 L 9.8 4.3", 0.6, **limb)]      # seat, bars


def bicycle():
    """Bicycle with rider, facing right, about 12 x 13 units."""
    limb = dict(cap=ROUND, join=RJOIN)
    return bike() + [
            DOT(8.3, 0.95, 0.95),                                        # head
            S("M 5.0 5.6 L 7.6 2.5", 1.5, **limb),                       # torso
            S("M 7.5 2.8 L 9.4 4.6", 0.7, **limb),                       # arm
            S("M 5.1 5.6 L 7.5 7.6 L 6.6 10.0", 0.85, **limb)]           # leg


def deer():
    """Leaping deer (buck) facing right, about 20 x 18 units: the hind hooves
    reach x = 0, the nose x = 19.7, antlers rise to y = -2.9."""
    limb = dict(cap=ROUND, join=RJOIN)
    body = ("M 3.2 8.0 C 5.5 6.6 9.0 5.6 12.0 4.8 "           # back
            "C 13.2 4.5 13.9 3.6 14.6 2.4 L 15.6 0.9 "        # back of neck, poll
            "C 16.2 0.3 16.9 0.5 17.4 1.0 L 19.4 2.6 "        # forehead, muzzle
            "C 19.7 3.0 19.5 3.5 19.0 3.5 L 17.0 3.4 "        # nose, jaw
            "C 16.4 4.4 16.0 5.6 15.6 6.6 "                   # throat
            "C 15.3 8.0 14.4 9.2 12.6 9.8 "                   # chest
            "C 10.6 10.4 8.0 11.0 5.6 11.2 "                  # belly
            "C 3.8 11.3 2.4 10.2 3.2 8.0 Z")                  # rump
    return [F(body),
            ELLIPSE(5.4, 9.6, 2.5, 1.7, 28),                            # haunch
            F("M 15.5 1.5 L 13.7 1.0 L 14.9 2.7 Z"),                     # ear
            S("M 16.3 0.7 C 16.0 -0.6 15.2 -1.6 13.9 -2.1 "
              "M 15.9 -0.5 L 16.9 -2.0 M 15.0 -1.5 L 15.3 -2.9", 0.55, **limb),  # antlers
            S("M 14.2 8.6 L 16.6 9.8 L 18.4 9.0", 1.0, **limb),         # front legs
            S("M 13.2 9.4 L 15.4 11.3 L 17.6 11.5", 1.0, **limb),
            S("M 4.6 10.2 L 2.2 11.0 L 0.4 13.2", 1.1, **limb),         # hind legs
            S("M 5.8 10.9 L 4.0 12.3 L 3.0 14.8", 1.05, **limb),
            S("M 3.5 8.3 L 2.7 7.2", 1.1, **limb)]                      # tail


def cow():
    """Cow side view facing right, about 18 x 11.5 units, top-left (0, 0)."""
    limb = dict(cap=ROUND, join=RJOIN)
    body = ("M 3.0 2.4 H 12.6 C 13.8 2.4 14.8 2.6 15.6 3.0 L 16.8 3.2 "
            "C 17.4 3.3 17.6 3.8 17.7 4.4 L 18.0 6.0 C 18.0 6.6 17.5 6.9 16.9 6.8 "
            "L 15.8 6.6 C 15.2 7.0 14.8 7.8 14.2 8.2 L 13.0 8.4 H 4.2 "
            "C 3.0 8.4 2.5 7.2 2.5 5.8 C 2.5 4.4 2.5 3.0 3.0 2.4 Z")
    return [F(body),
            S("M 16.4 3.4 L 17.1 2.0 M 15.7 3.7 L 14.5 3.3", 0.55, **limb),  # horn, ear
            ELLIPSE(7.0, 8.6, 1.1, 0.6),                                  # udder
            S("M 12.6 7.8 V 11.4 M 11.0 7.8 V 11.2 M 4.0 7.8 V 11.4 M 5.6 7.8 V 11.2",
              1.0, **limb),                                               # legs
            S("M 2.7 3.0 C 2.0 4.5 2.0 6.0 2.0 7.6", 0.4, **limb),        # tail
            DOT(2.0, 7.9, 0.45)]


def tractor():
    """Farm tractor facing right, about 16 x 12 units, top-left (0, 0)."""
    return [S("M 3.4 4.8 V 0.6 H 7.4 V 4.8", 0.6),                      # cab frame
            F("M 2.4 0.0 H 8.4 V 0.8 H 2.4 Z"),                          # roof
            F("M 6.4 4.4 H 14.2 C 14.8 4.4 15.2 4.9 15.2 5.5 V 8.2 H 6.4 Z"),  # hood
            F("M 2.6 4.2 H 7.4 V 6.2 H 2.6 Z"),                          # seat deck
            S("M 11.8 4.6 V 2.0", 0.55),                                 # exhaust
            DOT(4.4, 8.0, 3.9), BGDOT(4.4, 8.0, 1.5), DOT(4.4, 8.0, 0.7),
            DOT(13.2, 9.7, 2.2), BGDOT(13.2, 9.7, 0.8)]


def fire_truck():
    """Fire truck facing right, about 18 x 8.2 units, top-left (0, 0)."""
    return [F("M 0 2.6 H 12.6 V 6.6 H 0 Z"),                              # body
            F("M 12.9 1.3 H 15.4 L 17.8 3.9 V 6.6 H 12.9 Z"),            # cab
            BGQUAD(14.0, 2.1, 15.0, 2.1, 16.6, 3.9, 14.0, 3.9),           # window
            S("M 0.6 1.2 H 12.2 M 0.6 2.1 H 12.2", 0.35),                # ladder rails
            S(" ".join("M %.1f 1.2 V 2.1" % (1.0 + 1.1 * k) for k in range(11)), 0.3),
            F("M 13.4 0.5 H 14.6 V 1.3 H 13.4 Z"),                       # light bar
            DOT(2.8, 6.9, 1.3), BGDOT(2.8, 6.9, 0.45),
            DOT(5.6, 6.9, 1.3), BGDOT(5.6, 6.9, 0.45),
            DOT(15.3, 6.9, 1.3), BGDOT(15.3, 6.9, 0.45)]


def child_ball():
    """Child running toward a ball, 9 units tall, feet at y = 0."""
    limb = dict(cap=ROUND, join=RJOIN)
    return [DOT(0.3, -7.9, 1.15),
            S("M 0.2 -6.3 L -0.2 -3.6", 2.0, **limb),                    # torso
            S("M 0.2 -6.0 L 1.6 -4.6 L 2.5 -4.4", 0.75, **limb),          # arms
            S("M 0.0 -6.0 L -1.3 -4.9 L -2.1 -4.0", 0.75, **limb),
            S("M -0.1 -3.7 L 1.3 -2.0 L 1.9 -0.2", 1.0, **limb),          # legs
            S("M -0.3 -3.7 L -1.0 -1.8 L -2.4 -0.6", 1.0, **limb),
            DOT(4.4, -1.1, 1.1)]                                          # ball


def bed():
    """Bed with a sleeper, about 18 x 10 units, top-left (0, 0)."""
    return [F("M 0 0 H 1.4 V 10 H 0 Z"),                                 # headboard
            F("M 16.6 3.2 H 18 V 10 H 16.6 Z"),                          # footboard
            F("M 1.4 6.2 H 16.6 V 8.0 H 1.4 Z"),                         # mattress
            DOT(3.6, 4.0, 1.35),                                         # head
            F("M 5.4 5.6 C 5.4 3.6 6.6 3.0 8.4 3.0 H 15.0 C 16.0 3.0 16.2 4.0 16.2 5.6 Z")]


def fork_knife():
    """Fork and knife side by side, about 9 x 17 units, top-left (0, 0)."""
    return [S("M 0.4 0 V 5.0 M 1.6 0 V 5.0 M 2.8 0 V 5.0", 0.55),
            F("M 0.1 4.6 H 3.1 V 5.6 C 3.1 6.6 2.3 7.2 1.6 7.2 C 0.9 7.2 0.1 6.6 0.1 5.6 Z"),
            F("M 1.0 7.0 H 2.2 V 17 H 1.0 Z"),                           # fork handle
            F("M 6.3 9.2 V 1.2 C 6.3 0.4 7.0 0 8.6 0.6 V 9.2 Z"),         # blade
            F("M 6.9 9.0 H 8.3 V 17 H 6.9 Z")]                           # knife handle


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
sign("speed-limit-35", speed_limit("35"))
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

sign("night-speed-limit", stack(
    word_sign("NIGHT", w=24, h=9, cap=3.8, bg=BLACK, ink=WHITE, border=WHITE, r=1.0),
    speed_limit("45"), gap=0.6))
sign("minimum-speed-limit", regulatory(24, 48,
    T("SPEED", 12, 5.6, 3.6, maxw=19), T("LIMIT", 12, 10.8, 3.6, maxw=19),
    T("65", 12, 20.4, 9.6, maxw=17),
    T("MINIMUM", 12, 31.4, 3.4, maxw=19), T("40", 12, 40.6, 8.0, maxw=17)))
sign("no-turns", word_regulatory("NO", "TURNS", w=24, h=24, cap=4.6))
sign("left-lane-turn-only", regulatory(30, 36,
    A("M 18.6 26.4 V 14.2 C 18.6 11.2 17.2 9.8 14.2 9.8 H 11.4", 3.4, hw=8.6, hl=5.2),
    T("ONLY", 15, 31.2, 4.2, maxw=22)))
sign("through-lane-only", regulatory(30, 36,
    A("M 15 26.4 V 11.4", 3.4, hw=8.6, hl=5.2),
    T("ONLY", 15, 31.2, 4.2, maxw=22)))
sign("straight-or-right-lane", regulatory(30, 36,
    A("M 11.6 32.0 V 11.0", 3.2, hw=8.2, hl=5.0),
    A("M 11.6 24.0 C 11.6 19.4 13.4 17.6 17.0 17.6 H 19.4", 3.0, hw=7.8, hl=4.8)))
sign("right-lane-must-turn-right", word_regulatory("RIGHT LANE", "MUST", "TURN RIGHT",
                                                   w=30, h=30, cap=3.8))
sign("keep-left", regulatory(24, 30, G([
    F("M 7.2 17.8 C 7.2 15.6 10.8 15.6 10.8 17.8 V 26.0 H 7.2 Z"),
    A("M 9.0 3.5 V 6.5 C 9.0 10.5 15.2 10.5 15.2 14.5 V 20.0", 2.2, hw=5.6, hl=3.6)],
    24, 0, flip=True)))
sign("one-way-vertical", regulatory(24, 30,
    T("ONE", 12, 6.4, 4.4, maxw=19), T("WAY", 12, 12.8, 4.4, maxw=19),
    A("M 3.6 22.0 H 14.6", 3.4, hw=8.4, hl=5.4)))
sign("roundabout-directional", regulatory(36, 18,
    F("M 6.6 3.0 H 11.6 L 17.2 9.0 L 11.6 15.0 H 6.6 L 12.2 9.0 Z"),
    F("M 17.8 3.0 H 22.8 L 28.4 9.0 L 22.8 15.0 H 17.8 L 23.4 9.0 Z")))


def parking_rule(*words):
    """R7 series: red legend on white, with a double arrow along the curb."""
    return (12, 18, [FACE(rect(0, 0, 12, 18, 0.75), WHITE, RED, 0.25, 0.4, ink=RED)]
            + LINES(list(words), 6, 3.2, 3.4, 1.7, maxw=10)
            + [A("M 6 14.6 H 8.7", 0.9, hw=2.6, hl=1.5), A("M 6 14.6 H 3.3", 0.9, hw=2.6, hl=1.5)])


sign("no-parking-any-time", parking_rule("NO", "PARKING", "ANY TIME"))
sign("no-standing-any-time", parking_rule("NO", "STANDING", "ANY TIME"))
sign("tow-away-zone", stack(parking_rule("NO", "PARKING", "ANY TIME"),
                            word_sign("TOW-AWAY", "ZONE", w=12, h=7, cap=1.7, ink=RED,
                                      r=0.6, dy=2.5)))
sign("bicycles-may-use-full-lane", regulatory(30, 30,
    G(bike(), 7.8, -1.4, 1.12),
    T("MAY USE", 15, 19.2, 3.5, maxw=25), T("FULL LANE", 15, 25.0, 3.5, maxw=25)))
sign("hov-lane", regulatory(30, 40,
    F("M 1.25 1.25 H 28.75 V 11.6 H 1.25 Z"),
    SHAPE(diamond(8.4, 10.8, 2.2), WHITE),
    T("HOV 2+", 15, 16.8, 4.2, maxw=25), T("ONLY", 15, 23.0, 4.2, maxw=25),
    T("7-9 AM", 15, 29.6, 3.2, maxw=25), T("MON-FRI", 15, 34.6, 3.2, maxw=25)))
sign("weight-limit", regulatory(24, 30,
    T("WEIGHT", 12, 5.4, 3.4, maxw=19), T("LIMIT", 12, 10.6, 3.4, maxw=19),
    T("10", 12, 18.2, 6.4, maxw=17), T("TONS", 12, 25.0, 3.4, maxw=19)))
sign("no-bicycles", prohibition(G(bike(), 4.2, 1.5, 1.2)))

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
HILL = warning(F("M 7.6 15.6 L 22.2 21.2 L 7.6 21.2 Z"), G(truck(), 10.2, 11.1, 1.0, rot=21))
sign("hill", HILL)
sign("slippery-when-wet", warning(
    G(car_rear(), 15, 10.6, 0.95, rot=-12),
    S("M 12.0 14.2 C 10.2 16.2 13.6 17.8 11.8 20.2 C 11.2 21.0 11.6 21.8 12.6 22.8", 0.9),
    S("M 17.6 13.0 C 15.8 15.6 19.4 17.0 17.6 19.6 C 17.0 20.6 17.4 21.4 18.4 22.6", 0.9)))
sign("pedestrian-crossing", warning(G(walker(), 15.3, 23.0, 1.62, flip=True)))
sign("bicycle-crossing", warning(G(bicycle(), 8.1, 8.6, 1.05)))
sign("deer-crossing", warning(G(deer(), 7.4, 11.6, 0.8, rot=-8)))
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

CURVE_LEFT = warning(G([A("M 12.3 23.8 V 17.5 C 12.3 13.0 14.0 11.0 17.2 8.8", 2.5)],
                       30, 0, flip=True))


def yellow_plaque(*texts, w=24, h=10, cap=3.6, bg=YELLOW):
    return word_sign(*texts, w=w, h=h, cap=cap, bg=bg, r=1.0)


sign("chevron-alignment", (18, 24, [
    FACE(rect(0, 0, 18, 24, 1.0), YELLOW, BLACK, 0.35, 0.6),
    F("M 4.4 3.0 H 9.4 L 14.4 12.0 L 9.4 21.0 H 4.4 L 9.4 12.0 Z")]))
sign("large-arrow", (48, 24, [
    FACE(rect(0, 0, 48, 24, 1.5), YELLOW, BLACK, 0.5, 0.75),
    F("M 6.0 9.0 H 29.0 V 3.4 L 42.0 12.0 L 29.0 20.6 V 15.0 H 6.0 Z")]))
sign("curve-advisory-speed", stack(CURVE_LEFT, (18, 18, [
    FACE(rect(0, 0, 18, 18, 1.1), YELLOW, BLACK, 0.35, 0.6),
    T("35", 9, 7.0, 6.2, maxw=14), T("MPH", 9, 13.9, 3.2, maxw=14)])))
sign("exit-advisory-speed", (24, 30, [
    FACE(rect(0, 0, 24, 30, 1.5), YELLOW, BLACK, 0.5, 0.75),
    T("EXIT", 12, 6.4, 4.0, maxw=19), T("25", 12, 15.4, 8.0, maxw=18),
    T("MPH", 12, 24.2, 4.0, maxw=19)]))
sign("road-narrows", warning(
    S("M 10.2 24.0 V 18.2 L 12.6 13.6 V 7.6", 2.2),
    S("M 19.8 24.0 V 18.2 L 17.4 13.6 V 7.6", 2.2)))
sign("one-lane-bridge", warning(*dia_lines(["ONE LANE", "BRIDGE"], 3.2, 5.0)))
sign("lane-ends-left", warning(G([
    S("M 11.0 23.4 V 7.6", 2.2),
    S("M 19.0 23.4 V 17.6 L 15.2 12.4 V 7.6", 2.2)], 30, 0, flip=True)))
sign("right-lane-ends", warning(*dia_lines(["RIGHT", "LANE", "ENDS"], 3.4, 4.8)))
sign("double-arrow", warning(
    A("M 13.6 8.4 L 9.6 19.6", 2.2, hw=5.6, hl=3.4),
    A("M 16.4 8.4 L 20.4 19.6", 2.2, hw=5.6, hl=3.4)))
sign("be-prepared-to-stop", warning(*dia_lines(["BE", "PREPARED", "TO STOP"], 2.9, 4.4)))
sign("reduced-speed-ahead", (30, 36, [
    FACE(rect(0, 0, 30, 36, 1.5), YELLOW, BLACK, 0.5, 0.75),
    FACE(rect(5.0, 3.2, 20, 24, 1.0), WHITE, BLACK, 0.3, 0.5),
    T("SPEED", 15, 7.6, 3.0, maxw=16), T("LIMIT", 15, 12.0, 3.0, maxw=16),
    T("45", 15, 20.2, 7.6, maxw=15),
    T("AHEAD", 15, 31.4, 4.0, maxw=25)]))
sign("steep-grade", stack(HILL, yellow_plaque("8% GRADE", w=24, h=9, cap=3.6)))
sign("truck-rollover", warning(
    G(truck(), 9.8, 7.6, 1.1, rot=12),
    A("M 18.4 23.4 V 21.6 C 18.4 18.8 16.0 17.8 11.6 17.8", 2.0, hw=5.0, hl=3.0)))
sign("pavement-ends", warning(*dia_lines(["PAVEMENT", "ENDS"], 3.0, 4.8)))
sign("dip", warning(*dia_lines(["DIP"], 5.6, 0)))
sign("bump", warning(*dia_lines(["BUMP"], 5.0, 0)))
sign("soft-shoulder", warning(*dia_lines(["SOFT", "SHOULDER"], 3.0, 4.8)))
sign("low-shoulder", warning(*dia_lines(["LOW", "SHOULDER"], 3.0, 4.8)))
sign("loose-gravel", warning(*dia_lines(["LOOSE", "GRAVEL"], 3.4, 5.0)))
sign("fallen-rocks", warning(*dia_lines(["FALLEN", "ROCKS"], 3.4, 5.0)))
sign("bridge-ices", warning(*dia_lines(["BRIDGE", "ICES BEFORE", "ROAD"], 2.6, 4.0)))
sign("dead-end", warning(*dia_lines(["DEAD", "END"], 4.2, 6.0)))
sign("cattle-crossing", warning(G(cow(), 6.0, 8.6, 1.0)))
sign("farm-machinery", warning(G(tractor(), 7.0, 8.9, 1.0)))
sign("emergency-vehicle", warning(G(fire_truck(), 6.1, 10.6, 1.0)))
sign("trail-crossing", warning(G(walker(), 9.6, 20.6, 1.12), G(bicycle(), 12.6, 10.4, 0.84)))
sign("playground", warning(G(child_ball(), 12.4, 21.2, 1.3)))
sign("pedestrian-crosswalk", stack(
    warning(G(walker(), 15.3, 23.0, 1.62, flip=True), bg=FYG), arrow_plaque(FYG)))

# --- School ---------------------------------------------------------------
SCHOOL = (36, 36, [
    FACE(pentagon(36, 36, 14.5, r=1.8), FYG, BLACK, 0.6, 0.9),
    G(walker(), 14.0, 31.0, 1.55, flip=True),
    G(walker(), 23.0, 31.0, 1.28, flip=True)])
sign("school-zone", SCHOOL)
sign("school-bus-stop-ahead", warning(
    *dia_lines(["SCHOOL", "BUS", "STOP", "AHEAD"], 2.7, 3.9), bg=FYG))
SCHOOL_SPEED = (24, 48, [
    FACE(rect(0, 0, 24, 48, 1.5), WHITE, BLACK, 0.5, 0.75),
    F("M 1.25 1.25 H 22.75 V 10.2 H 1.25 Z", FYG),
    S("M 1.25 10.2 H 22.75", 0.6),
    T("SCHOOL", 12, 5.8, 3.6, maxw=19),
    T("SPEED", 12, 14.4, 3.6, maxw=19), T("LIMIT", 12, 19.6, 3.6, maxw=19),
    T("20", 12, 29.2, 9.6, maxw=17),
    T("WHEN", 12, 38.6, 2.9, maxw=19), T("FLASHING", 12, 43.0, 2.9, maxw=19)])


def beacon_lamp(cx, cy, lit, r=3.1):
    """One school-zone flashing beacon: a round yellow lamp (lit or dark)."""
    items = [DOT(cx, cy, r, SIGNAL_YELLOW if lit else hexrgb("#5E5220"))]
    if lit:
        items.append(DOT(cx - 0.3 * r, cy - 0.3 * r, 0.35 * r, hexrgb("#FFE680")))
    return items


# S5-1 with its two alternately flashing yellow beacons on a backplate above it
sign("school-speed-limit", stack(
    (24, 10, [SHAPE(rect(0.5, 0.5, 23.0, 9.5, 1.2), BLACK)]
     + beacon_lamp(6.6, 5.25, True) + beacon_lamp(17.4, 5.25, False)),
    SCHOOL_SPEED, gap=0.6))
sign("school-crossing", stack(SCHOOL, arrow_plaque(FYG)))
sign("school-zone-ahead", stack(SCHOOL, word_sign("AHEAD", w=24, h=9, cap=4.0, bg=FYG, r=1.0)))
sign("end-school-speed-limit", word_regulatory("END", "SCHOOL", "SPEED", "LIMIT", cap=3.6))

# --- Railroad -------------------------------------------------------------
sign("railroad-crossbuck", (XBUCK, XBUCK, crossbuck(XBUCK / 2, XBUCK / 2)))
sign("railroad-advance-warning", (36, 36, [
    FACE(Circle(18, 18, 18), YELLOW, BLACK, 0.6, 0.9),
    S("M 9.8 9.8 L 26.2 26.2 M 26.2 9.8 L 9.8 26.2", 2.9),
    T("R", 8.6, 18, 6.4), T("R", 27.4, 18, 6.4)]))
sign("railroad-tracks-count", (XBUCK, XBUCK + 15, crossbuck(XBUCK / 2, XBUCK / 2) + [
    FACE(rect(XBUCK / 2 - 13.5, XBUCK + 2.5, 27, 12.5, 0.75), WHITE, BLACK, 0.3, 0.6),
    T("2 TRACKS", XBUCK / 2, XBUCK + 8.75, 5.0, maxw=23)]))

sign("do-not-stop-on-tracks", word_regulatory("DO NOT", "STOP ON", "TRACKS", cap=3.8))

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

sign("end-road-work", word_sign("END ROAD WORK", w=36, h=18, cap=4.2, bg=ORANGE))
sign("right-lane-closed-ahead", warning(*dia_lines(["RIGHT LANE", "CLOSED", "AHEAD"], 2.9, 4.4),
                                        bg=ORANGE))
sign("road-closed", word_regulatory("ROAD", "CLOSED", w=48, h=30, cap=6.4))

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
sign("state-route", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLACK),
    DOT(12, 12, 10.4, WHITE),
    T("27", 12, 12, 8.4, BLACK, maxw=15)]))
sign("county-route", (24, 24, [
    FACE(pentagon(24, 24, 7.6, r=1.2), BLUE, YELLOW, 0.4, 0.8, ink=YELLOW),
    T("COUNTY", 12, 9.6, 2.4, maxw=14),
    T("12", 12, 16.6, 7.6, maxw=16)]))
sign("mile-marker", (10, 24, [
    FACE(rect(0, 0, 10, 24, 0.8), GREEN, WHITE, 0.3, 0.5, ink=WHITE),
    T("MILE", 5, 3.8, 1.7, maxw=7.5), T("4", 5, 10.4, 5.0), T("2", 5, 18.0, 5.0)]))
sign("exit-number", (48, 36, [
    FACE(rect(25, 0, 21, 9, 1.0), GREEN, WHITE, 0.4, 0.6, ink=WHITE),
    T("EXIT 42", 35.5, 4.8, 3.2, maxw=17),
    FACE(rect(0, 8.4, 48, 27.6, 1.5), GREEN, WHITE, 0.5, 0.75, ink=WHITE),
    T("Oak St", 24, 18.4, 5.4, maxw=40), T("1 MILE", 24, 29.0, 3.8, maxw=40)]))
sign("exit-only", (48, 36, [
    FACE(rect(0, 0, 48, 36, 1.5), GREEN, WHITE, 0.5, 0.75, ink=WHITE),
    T("Airport", 24, 7.4, 4.8, maxw=40),
    A("M 24 12.0 V 17.2", 2.6, hw=6.4, hl=3.4),
    SHAPE(rect(1.25, 23.2, 45.5, 11.55, 0.3), YELLOW),
    T("EXIT", 11.8, 29.0, 4.0, BLACK, maxw=16),
    A("M 24 25.0 V 29.6", 2.2, hw=5.0, hl=2.8, color=BLACK),
    T("ONLY", 36.4, 29.0, 4.0, BLACK, maxw=16)]))
sign("distance-sign", (48, 30, [
    FACE(rect(0, 0, 48, 30, 1.5), GREEN, WHITE, 0.5, 0.75, ink=WHITE),
    T("Elm City", 4.2, 8.0, 4.0, align="l"), T("12", 43.8, 8.0, 4.0, align="r"),
    T("Oakdale", 4.2, 15.0, 4.0, align="l"), T("27", 43.8, 15.0, 4.0, align="r"),
    T("Riverton", 4.2, 22.0, 4.0, align="l"), T("48", 43.8, 22.0, 4.0, align="r")]))
sign("food", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    G(fork_knife(), 7.5, 3.5, 1.0)]))
sign("lodging", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    G(bed(), 3.0, 7.0, 1.0)]))
sign("bike-route", (24, 18, [
    FACE(rect(0, 0, 24, 18, 1.2), GREEN, WHITE, 0.4, 0.6, ink=WHITE),
    G(bicycle(), 7.4, 1.8, 0.72),
    T("BIKE ROUTE", 12, 14.4, 2.6, maxw=20)]))


# --------------------------------------------------------------------------
# Rendering

def render(sign_id, path):
    w, h, items = SIGNS[sign_id]
    s = (LONG_SIDE - 2 * PAD) / max(w, h)
    W, H = round(w * s) + 2 * PAD, round(h * s) + 2 * PAD
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, W, H)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(*CARD)                          # opaque: JPEG-safe
    ctx.paint()
    ctx.translate((W - w * s) / 2, (H - h * s) / 2)
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
    c.set_source_rgb(0.82, 0.84, 0.86)                 # darker than the cards
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
