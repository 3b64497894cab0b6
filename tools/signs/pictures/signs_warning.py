"""Warning signs (W series): the yellow diamonds (curves, intersections, lanes,
crossings, surface and shoulder hazards) and their plaques, chevrons and arrows."""

import math

from .colors import BLACK, FYG, ORANGE, RED, WHITE, YELLOW
from .shapes import octagon, pennant, rect, triangle_down, triangle_up
from .items import A, F, FACE, G, ROUNDABOUT, S, SHAPE, T
from .pictograms import (bicycle, car_rear, child_ball, cow, deer, fire_truck, tractor,
                         traffic_signal, truck, walker)
from .families import arrow_plaque, dia_lines, stack, warning, yellow_plaque
from .canvas import Table

SIGNS = Table()
sign = SIGNS.add

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
