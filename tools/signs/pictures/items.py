"""Drawing items: the building blocks every picture is made of.

Each constructor returns a function of a ``Pen`` (a cairo context plus the
current legend and background colours); a picture is a list of them. Text is
fitted to a width by condensing, then shrinking (``T``).
"""

import math

import cairo

from .colors import BLACK, CAP, CAPTION, FONT, RED, WHITE
from .shapes import rect, trace

ROUND, BUTT = cairo.LINE_CAP_ROUND, cairo.LINE_CAP_BUTT
RJOIN, MJOIN = cairo.LINE_JOIN_ROUND, cairo.LINE_JOIN_MITER


class Pen:
    """A cairo context plus the sign's current legend colour."""

    def __init__(self, ctx):
        self.c = ctx
        self.ink = BLACK
        self.bg = WHITE


# --------------------------------------------------------------------------
# Items

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


def BOX(x, y, w, h, color, r=0.0):
    """A filled rectangle (optionally with rounded corners)."""
    return SHAPE(rect(x, y, w, h, r), color)


def CAPTION_TEXT(s, cx, cy, cap=2.2):
    """A caption under a scene (FLASHING, ALL LIGHTS DARK ...)."""
    return T(s, cx, cy, cap, CAPTION)



def POLY(pts, color, alpha=1.0):
    """A filled polygon through ``pts``, optionally see-through (``alpha``)."""
    def draw(p):
        c = p.c
        c.new_path()
        c.move_to(*pts[0])
        for pt in pts[1:]:
            c.line_to(*pt)
        c.close_path()
        c.set_source_rgba(*color, alpha)
        c.fill()
    return draw


def CLIP(x, y, w, h, items):
    """Draw ``items`` clipped to a rectangle."""
    def draw(p):
        p.c.save()
        p.c.rectangle(x, y, w, h)
        p.c.clip()
        for item in items:
            item(p)
        p.c.restore()
    return draw


def DASHED(d, w, color, on=1.2, off=1.0):
    """A dashed stroke (guide lines that are not pavement markings)."""
    line = S(d, w, color)

    def draw(p):
        p.c.save()
        p.c.set_dash([on, off])
        line(p)
        p.c.restore()
    return draw
