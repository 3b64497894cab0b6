"""Lesson scenes at intersections, seen from above: who goes first at a
four-way stop, and which lane a turn starts and ends in.

Units: 1 = 1 ft, roughly (see roads.py); signs are drawn upright and larger
than life so they read at phone size."""

from .colors import ASPHALT, CAR_YOU, MARK_WHITE, MARK_YELLOW, VERGE, hexrgb
from .items import A, BOX, CAPTION_TEXT, G, T
from .families import stop_all_way_face
from .canvas import Table
from .roads import badge, broken, car_toward, hbroken, hsolid, solid

SCENES = Table()
scene = SCENES.add

FIRST = hexrgb("#15803D")          # badge / path of the car that goes first
SECOND = hexrgb("#C2410C")         # badge / path of the car that waits
GHOST = hexrgb("#A9C3F0")          # where a turning car ends up
LEFT_TURN = hexrgb("#C2410C")
RIGHT_TURN = hexrgb("#15803D")


# --------------------------------------------------------------------------
# Four-way stop

def four_way_stop():
    """Two two-lane roads crossing, a STOP + ALL WAY sign on every approach,
    two cars at their stop lines. Car 1 stopped first and goes first; YOU (2)
    go next. The tie rule gives the same order: car 1 is on your right."""
    W, H = 100.0, 122.0
    c = 50.0                        # centre of the crossing
    h = 12.0                        # lane width; each road is 2 x 12 ft
    a, b = c - h, c + h             # road edges
    sb = 4.0                        # stop line set back from the crossing
    items = [BOX(0, 0, W, 100.0, VERGE),
             BOX(a, 0, 2 * h, 100.0, ASPHALT), BOX(0, a, W, 2 * h, ASPHALT)]
    # centre lines (double yellow) and white edge lines, up to the crossing; the
    # two roads are alike, so each offset gives a line on both
    for lo, hi in ((0, a), (b, 100.0)):
        for pos, col in ((c - 0.5, MARK_YELLOW), (c + 0.5, MARK_YELLOW),
                         (a + 0.6, MARK_WHITE), (b - 0.6, MARK_WHITE)):
            items += [solid(pos, lo, hi, col), hsolid(pos, lo, hi, col)]
    # stop lines, across the right-hand lane of each approach
    items += [BOX(c + 0.5, b + sb, h - 0.5, 1.8, MARK_WHITE),          # from the south
              BOX(a - sb - 1.8, c + 0.5, 1.8, h - 0.5, MARK_WHITE),    # from the west
              BOX(a, a - sb - 1.8, h - 0.5, 1.8, MARK_WHITE),          # from the north
              BOX(b + sb, a, 1.8, h - 0.5, MARK_WHITE)]                # from the east
    # STOP / ALL WAY on the right-hand corner of every approach (drawn upright)
    k = 13.0 / 30                   # the 30 x 37.5 in assembly, 13 ft wide here
    for x, y in ((b + 3.0, b + 3.0), (a - 16.0, b + 3.0), (a - 16.0, a - 19.5), (b + 3.0, a - 19.5)):
        items.append(G(stop_all_way_face(), x, y, k))
    # YOU (from the south, car 2) and car 1 (from the east, on your right)
    y_you = b + sb + 1.8 + 0.8 + 7.0
    x_one = b + sb + 1.8 + 0.8 + 7.0
    items += [A("M %f %f V %f" % (c + h / 2, b + sb - 1.0, c + 4.5), 1.6, hw=4.4, hl=3.0, color=SECOND),
              A("M %f %f H %f" % (b + sb - 1.0, c - h / 2, a - 6.0), 1.6, hw=4.4, hl=3.0, color=FIRST),
              car_toward(c + h / 2, y_you, 0, CAR_YOU, "YOU"),
              car_toward(x_one, c - h / 2, 270),
              badge(c + h / 2, y_you + 11.5, "2", SECOND, r=3.4),
              badge(x_one + 11.5, c - h / 2, "1", FIRST, r=3.4)]
    items += [CAPTION_TEXT("CAR 1 STOPPED FIRST, SO IT GOES FIRST", W / 2, 107.0, cap=3.0),
              CAPTION_TEXT("IF YOU BOTH STOP AT THE SAME TIME,", W / 2, 113.0, cap=3.0),
              CAPTION_TEXT("YIELD TO THE CAR ON YOUR RIGHT", W / 2, 119.0, cap=3.0)]
    return W, H, items


scene("scene-four-way-stop", four_way_stop())


# --------------------------------------------------------------------------
# Turn lanes

def turn_lanes():
    """Two four-lane roads crossing. From the left lane, a left turn ends in
    the cross street's nearest left (inside) lane; from the right lane, a right
    turn ends in its nearest (right-hand, curb) lane. Pale cars: where each
    turn ends; the captions are coloured like the paths."""
    W, H = 112.0, 120.0
    R = 100.0                       # bottom of the road picture; captions below
    h = 12.0
    cx, cy = 56.0, 40.0             # centre lines of the two roads
    x0, x1 = cx - 2 * h, cx + 2 * h   # our road's edges
    y0, y1 = cy - 2 * h, cy + 2 * h   # the cross street's edges
    items = [BOX(0, 0, W, R, VERGE), BOX(x0, 0, 4 * h, R, ASPHALT), BOX(0, y0, W, 4 * h, ASPHALT)]
    for lo, hi in ((0, y0), (y1, R)):                       # our road, above and below
        items += [solid(cx - 0.5, lo, hi, MARK_YELLOW), solid(cx + 0.5, lo, hi, MARK_YELLOW),
                  solid(x0 + 0.6, lo, hi, MARK_WHITE), solid(x1 - 0.6, lo, hi, MARK_WHITE),
                  broken(cx - h, lo, hi, MARK_WHITE, phase=4), broken(cx + h, lo, hi, MARK_WHITE, phase=4)]
    for lo, hi in ((0, x0), (x1, W)):                       # the cross street
        items += [hsolid(cy - 0.5, lo, hi, MARK_YELLOW), hsolid(cy + 0.5, lo, hi, MARK_YELLOW),
                  hsolid(y0 + 0.6, lo, hi, MARK_WHITE), hsolid(y1 - 0.6, lo, hi, MARK_WHITE),
                  hbroken(cy - h, lo, hi, MARK_WHITE, phase=4), hbroken(cy + h, lo, hi, MARK_WHITE, phase=4)]
    items.append(BOX(cx + 0.5, y1 + 4.0, 2 * h - 0.5, 1.8, MARK_WHITE))        # our stop line
    yc = y1 + 4.0 + 1.8 + 0.8 + 7.0
    lx, rx = cx + h / 2, cx + 1.5 * h                       # our left and right lanes
    ly, ry = cy - h / 2, cy + 1.5 * h                       # where the turns end
    items += [car_toward(lx - 36.0, ly, 270, GHOST), car_toward(W - 14.0, ry, 90, GHOST),
              A("M %f %f V %f C %f %f %f %f %f %f H %f" % (
                  lx, yc - 8.0, cy + 8.0, lx, cy + 1.0, lx - 5.0, ly, lx - 14.0, ly, lx - 26.0),
                1.8, hw=4.8, hl=3.2, color=LEFT_TURN),
              A("M %f %f V %f C %f %f %f %f %f %f H %f" % (
                  rx, yc - 8.0, y1 + 1.0, rx, ry + 1.5, rx + 3.0, ry, rx + 9.0, ry, W - 25.0),
                1.8, hw=4.8, hl=3.2, color=RIGHT_TURN),
              car_toward(lx, yc, 0, CAR_YOU), car_toward(rx, yc, 0, CAR_YOU)]
    items += [T("LEFT TURN: LEFT LANE \u2192 NEAREST LEFT LANE", W / 2, 107.5, 2.9, LEFT_TURN,
                maxw=W - 6.0),
              T("RIGHT TURN: RIGHT LANE \u2192 NEAREST RIGHT LANE", W / 2, 114.5, 2.9, RIGHT_TURN,
                maxw=W - 6.0)]
    return W, H, items


scene("scene-turn-lanes", turn_lanes())
