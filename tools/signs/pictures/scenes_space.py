"""Lesson scenes about the space around the car, seen from above: following
distance (the two-second count), stopping for a school bus, blind spots.

Units: 1 = 1 ft, roughly (see roads.py); distances are shortened to fit."""

import math

from .colors import (ASPHALT, CAPTION, CAR_YOU, LIT, MARK_WHITE, MARK_YELLOW, POLE,
                     SHOULDER, VERGE, WHITE, hexrgb)
from .shapes import rect
from .items import A, BOX, CLIP, DASHED, DOT, G, POLY, S, SHAPE, T
from .families import stop_face
from .canvas import Table
from .roads import broken, car_toward, hbroken, hsolid, solid
from .scenes_signals import rays

SCENES = Table()
scene = SCENES.add

BUS_YELLOW = hexrgb("#F6B400")
BUS_ROOF = hexrgb("#FFD23F")
MIRROR_VIEW = hexrgb("#2F6FDE")
BLIND = hexrgb("#E0301E")
BLIND_TEXT = hexrgb("#B4231A")
COUNT = hexrgb("#FFE066")           # the spoken count, on the asphalt


# --------------------------------------------------------------------------
# Two-second rule

def two_second_rule():
    """A two-lane road, traffic in our lane going right. The car ahead has just
    passed a roadside post; YOU count 1... 2... and should not reach the post
    before '2'."""
    W, H = 100.0, 68.0
    top, mid, bot = 10.0, 22.0, 34.0          # road edges and centre line
    post = 62.0                                # the fixed roadside marker
    you_front = 16.0
    lane_y = (mid + bot) / 2
    items = [BOX(0, 0, W, 56.0, VERGE), BOX(0, top - 1.5, W, bot - top + 3.0, SHOULDER),
             BOX(0, top, W, bot - top, ASPHALT),
             hsolid(top + 0.6, 0, W, MARK_WHITE), hsolid(bot - 0.6, 0, W, MARK_WHITE),
             hbroken(mid, 0, W, MARK_YELLOW, phase=10)]
    # the post beside the road, and the line across our lane it marks
    items += [DASHED("M %f %f V %f" % (post, mid + 0.8, bot + 1.5), 0.5, WHITE),
              BOX(post - 0.5, bot + 2.0, 1.0, 10.0, POLE),
              BOX(post - 2.8, bot + 1.6, 5.6, 4.0, hexrgb("#00703C"), 0.5),
              T("POST", post + 4.0, bot + 9.0, 2.4, CAPTION, align="l")]
    items += [car_toward(post + 7.6, lane_y, 90),
              car_toward(you_front - 7.0, lane_y, 90, CAR_YOU, "YOU", cap=1.4)]
    # the count under our lane: 1 at half-way, 2 at the post
    y = bot + 12.5
    half = (you_front + post) / 2
    items += [DASHED("M %f %f V %f" % (you_front, bot - 3.0, y), 0.4, CAPTION),
              A("M %f %f H %f" % (you_front, y, post - 2.6), 0.8, hw=2.6, hl=2.0, color=CAPTION),
              S("M %f %f V %f" % (half, y - 1.6, y + 1.6), 0.8, CAPTION),
              T("1\u2026", half, y - 5.0, 3.6, CAPTION),
              T("2\u2026", post - 4.6, y - 5.0, 3.6, CAPTION)]
    items += [T("CAR AHEAD PASSES THE POST: COUNT 1\u2026 2\u2026", W / 2, 60.5, 2.8, CAPTION,
                maxw=W - 4.0),
              T("AT THE POST BEFORE 2? YOU ARE TOO CLOSE", W / 2, 66.0, 2.8, CAPTION, maxw=W - 4.0)]
    return W, H, items


scene("scene-two-second-rule", two_second_rule())


# --------------------------------------------------------------------------
# School bus stop

def school_bus(cx, front, flashing=True):
    """School bus seen from above, nose up, front bumper at y = ``front``:
    8 x 36 ft, red lights flashing at the front and back, and the stop arm
    swung out on the driver's (left) side, drawn upright so it reads."""
    w, L = 8.0, 36.0
    x0 = cx - w / 2
    items = [SHAPE(rect(x0, front, w, L, 1.2), BUS_YELLOW),
             SHAPE(rect(x0 + 0.9, front + 4.0, w - 1.8, L - 5.0, 0.6), BUS_ROOF),
             SHAPE(rect(x0 + 0.8, front + 2.2, w - 1.6, 1.6, 0.4), hexrgb("#27303A")),   # windshield
             G([T("SCHOOL BUS", 0, 0, 2.0, hexrgb("#111111"), maxw=L - 10.0)],
               cx, front + L / 2 + 1.0, rot=-90)]
    for y in (front + 0.9, front + L - 0.9):            # the red warning lamps
        for x in (x0 + 1.6, x0 + w - 1.6):
            if flashing:
                items.append(rays(x, y, 1.0, LIT["red"], n=8, r0=1.5, r1=2.4, w=0.45))
            items.append(DOT(x, y, 1.0, LIT["red"]))
    # stop arm: a bar out of the left side, and the STOP octagon on it
    ay, arm = front + 7.0, 7.6
    items += [BOX(x0 - 1.6, ay - 0.4, 1.6, 0.8, hexrgb("#111111")),
              G(stop_face(), x0 - 1.6 - arm, ay - arm / 2, arm / 30)]
    if flashing:
        items.append(rays(x0 - 1.6 - arm / 2, ay, arm / 3.3, LIT["red"], n=12, r0=1.5, r1=2.4, w=0.4))
    return items


def school_bus_stop():
    """A two-lane road: the bus has stopped with red lights flashing and the
    stop arm out. The car behind it (YOU) and the car coming the other way
    both stop."""
    W, H = 66.0, 108.0
    R = 94.0                                    # road picture; captions below
    cx, h = 33.0, 12.0
    x0, x1 = cx - h, cx + h
    items = [BOX(0, 0, W, R, VERGE), BOX(x0 - 2.0, 0, 2 * h + 4.0, R, SHOULDER),
             BOX(x0, 0, 2 * h, R, ASPHALT),
             solid(x0 + 0.6, 0, R, MARK_WHITE), solid(x1 - 0.6, 0, R, MARK_WHITE),
             broken(cx, 0, R, MARK_YELLOW, phase=6)]
    bus_front = 29.0
    items += school_bus(cx + h / 2, bus_front)
    you = bus_front + 36.0 + 13.0 + 7.0
    other = bus_front - 13.0 - 7.0
    items += [car_toward(cx + h / 2, you, 0, CAR_YOU, "YOU"),
              car_toward(cx - h / 2, other, 180)]
    items += [T("STOPPED", x1 + 2.0, you, 2.3, CAPTION, align="l", maxw=W - x1 - 3.0),
              T("STOPPED", x0 - 2.0, other, 2.3, CAPTION, align="r", maxw=x0 - 3.0)]
    items += [T("RED LIGHTS FLASHING, STOP ARM OUT:", W / 2, 99.0, 2.6, CAPTION, maxw=W - 3.0),
              T("TRAFFIC GOING BOTH WAYS STOPS", W / 2, 104.5, 2.6, CAPTION, maxw=W - 3.0)]
    return W, H, items


scene("scene-school-bus-stop", school_bus_stop())


# --------------------------------------------------------------------------
# Blind spots

def blind_spots():
    """YOU in the middle of three lanes going up. Blue: what the two side
    mirrors and the inside mirror show. Red: the blind spots beside and behind
    you that no mirror shows; the grey car sits in one."""
    W, H = 66.0, 102.0
    R = 86.0                                     # road picture; legend below
    h = 12.0
    cx, cy = 33.0, 24.0                          # YOU, nose up
    x0, x1 = cx - 1.5 * h, cx + 1.5 * h
    items = [BOX(0, 0, W, R, VERGE), BOX(x0 - 2.5, 0, 3 * h + 5.0, R, SHOULDER),
             BOX(x0, 0, 3 * h, R, ASPHALT),
             solid(x0 + 0.6, 0, R, MARK_YELLOW), solid(x1 - 0.6, 0, R, MARK_WHITE),
             broken(cx - h / 2, 0, R, MARK_WHITE, phase=4), broken(cx + h / 2, 0, R, MARK_WHITE, phase=4)]
    # what the mirrors show: each side mirror a narrow wedge back along the
    # car's side, the inside mirror a wedge straight back through the rear window
    my, shoulder = cy - 3.5, cy + 1.0           # mirrors; the driver's shoulder line
    spread = math.tan(math.radians(19))
    far = R - my
    views, spots = [], []
    for side in (-1, 1):
        mx = cx + side * 3.6
        views.append(POLY([(mx, my), (mx + side * 0.4 + side * 0.04 * far, R),
                           (mx + side * spread * far, R)], MIRROR_VIEW, 0.34))
        # blind spot: the next lane from the driver's shoulder back to where
        # the mirror's wedge takes over
        lane_in, lane_out = cx + side * (h / 2 + 0.6), cx + side * (1.5 * h - 1.0)
        y_in = my + abs(lane_in - mx) / spread
        y_out = my + abs(lane_out - mx) / spread
        spots.append(POLY([(lane_in, shoulder), (lane_out, shoulder), (lane_out, y_out),
                           (lane_in, y_in)], BLIND, 0.6))
    back = cy + 7.0
    views.append(POLY([(cx - 2.2, back), (cx + 2.2, back), (cx + 2.2 + 0.2 * (R - back), R),
                       (cx - 2.2 - 0.2 * (R - back), R)], MIRROR_VIEW, 0.34))
    items += [CLIP(x0 - 2.5, 0, 3 * h + 5.0, R, views)] + spots
    items += [car_toward(cx + h + 1.2, cy + 8.5, 0),
              car_toward(cx, cy, 0, CAR_YOU, "YOU"),
              SHAPE(rect(cx - 4.2, my - 0.6, 1.2, 1.2, 0.3), hexrgb("#111111")),   # mirrors
              SHAPE(rect(cx + 3.0, my - 0.6, 1.2, 1.2, 0.3), hexrgb("#111111"))]
    for lx in ((x0 - 2.5) / 2, (x1 + 2.5 + W) / 2):        # labels on the verges
        items += [T("BLIND", lx, shoulder + 6.0, 2.0, BLIND_TEXT, maxw=x0 - 4.0),
                  T("SPOT", lx, shoulder + 9.4, 2.0, BLIND_TEXT, maxw=x0 - 4.0)]
    # legend: swatches on asphalt, so they look like the zones above
    for y, color, alpha, text in ((90.5, MIRROR_VIEW, 0.34, "WHAT YOUR MIRRORS SHOW"),
                                  (96.5, BLIND, 0.6, "BLIND SPOT: TURN YOUR HEAD")):
        items += [BOX(4.0, y, 5.0, 4.0, ASPHALT),
                  POLY([(4.0, y), (9.0, y), (9.0, y + 4.0), (4.0, y + 4.0)], color, alpha),
                  T(text, 11.0, y + 2.0, 2.3, CAPTION, maxw=W - 14.0, align="l")]
    return W, H, items


scene("scene-blind-spots", blind_spots())
