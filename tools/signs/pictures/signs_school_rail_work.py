"""School signs (fluorescent yellow-green), railroad-crossing signs, and the
orange work-zone signs."""

from .colors import BLACK, FYG, hexrgb, ORANGE, SIGNAL_YELLOW, WHITE, YELLOW
from .shapes import Circle, pentagon, rect
from .items import A, DOT, F, FACE, G, S, SHAPE, T
from .pictograms import flagger, walker, worker
from .families import (arrow_plaque, crossbuck, dia_lines, stack, warning,
                       word_regulatory, word_sign, XBUCK)
from .canvas import Table

SIGNS = Table()
sign = SIGNS.add

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
