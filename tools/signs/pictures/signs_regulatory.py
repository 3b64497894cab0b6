"""Regulatory signs (R series): STOP, YIELD, speed limits, turn and lane-use
controls, prohibitions, parking rules."""

import math

from .colors import BLACK, BLUE, GREEN, RED, SIGNAL_GREEN, WHITE
from .shapes import diamond, rect
from .items import A, DOT, F, FACE, G, LINES, SHAPE, T
from .pictograms import bike, truck, walker, wheelchair
from .families import (prohibition, regulatory, speed_limit, stack, stop_all_way_face,
                       stop_face, word_regulatory, word_sign, yield_face)
from .canvas import Table

SIGNS = Table()
sign = SIGNS.add

sign("stop", (30, 30, stop_face()))
sign("stop-all-way", (30, 37.5, stop_all_way_face()))
sign("yield", (36, 36 * math.sqrt(3) / 2, yield_face()))
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
