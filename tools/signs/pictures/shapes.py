"""Outlines: SVG-style path tracing and the sign shapes (polygon with rounded
corners, circle, any closed path), each able to trace itself inset."""

import math
import re

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

