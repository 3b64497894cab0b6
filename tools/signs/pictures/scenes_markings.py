"""Pavement-marking diagrams seen from above: centre lines, lane lines, edge
lines, two-way left-turn and reversible lanes, stop and yield lines, lane-use
arrows, sharrow, HOV diamond, bike lane."""

from .colors import ASPHALT, CAR_YOU, hexrgb, MARK_WHITE, MARK_YELLOW, SHOULDER, VERGE
from .items import A, BOX, F, G, MJOIN, S, T
from .canvas import Table
from .roads import bicycle_symbol, broken, car, road_bg, solid

SCENES = Table()
scene = SCENES.add


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
                       MARK_WHITE, join=MJOIN))
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
# The table

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
