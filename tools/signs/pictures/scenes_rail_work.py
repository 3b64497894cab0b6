"""Railroad-crossing assemblies (crossbuck with YIELD or STOP, flashing lights
and gate, ENS sign, RXR pavement marking) and work-zone signs and devices
(orange diamonds, speed-limit assemblies, the flashing arrow board)."""

from .colors import (ASPHALT, BLACK, BLUE, CAR_YOU, hexrgb, LIT, MARK_WHITE, MARK_YELLOW,
                     ORANGE, POLE, RAIL, RED, TIE, VERGE, WHITE, YELLOW)
from .shapes import Circle, rect
from .items import BOX, CAPTION_TEXT, DOT, FACE, G, S, T
from .families import (crossbuck, dia_lines, speed_limit, stop_face, warning, XBUCK,
                       yield_face)
from .canvas import Table
from .roads import car, solid
from .scenes_signals import glow, lens

SCENES = Table()
scene = SCENES.add


# --------------------------------------------------------------------------
# Railroad

def post(cx, top, bottom, w=1.6):
    return BOX(cx - w / 2, top, w, bottom - top, POLE)


def crossbuck_assembly(kind):
    """Crossbuck (R15-1) with a YIELD (R1-2) or STOP (R1-1) sign on the same post."""
    s = 0.5
    xb = XBUCK * s
    W = xb + 10.0
    cx = W / 2
    H = xb + 36.0
    items = [post(cx, xb / 2, H - 1.0)]
    items.append(G(crossbuck(XBUCK / 2, XBUCK / 2), cx - xb / 2, 1.0, s))
    sy = xb + 4.0
    if kind == "yield":
        items.append(G(yield_face(), cx - 12.0, sy, 24 / 36))
    else:
        items.append(G(stop_face(), cx - 12.0, sy, 24 / 30))
    return W, H, items


def flashing_lights_gate():
    """Flashing-light signal with crossbuck, and the gate arm lowered across the road."""
    W, H = 80.0, 72.0
    px = 16.0
    items = [BOX(0, H - 16, W, 10, ASPHALT), BOX(0, H - 16.6, W, 0.6, MARK_WHITE)]
    items.append(post(px, 6.0, H - 14.0, 2.0))
    s = 0.46
    xb = XBUCK * s
    items.append(G(crossbuck(XBUCK / 2, XBUCK / 2), px - xb / 2, 0.5, s))
    # cross-arm with two red lights that flash in turn (one shown lit)
    ly = xb + 7.5
    items += [BOX(px - 13, ly - 0.7, 26, 1.4, BLACK)]
    for k, x in enumerate((px - 8.0, px + 8.0)):
        items += [DOT(x, ly, 6.0, BLACK)]
        items += lens(x, ly, 4.0, "red", "flash" if k == 0 else "off")
    # gate arm, lowered across the road: red-and-white stripes with red lights
    gy = ly + 15.0
    items += [BOX(px - 3.5, gy - 4, 7, 10, hexrgb("#3A3D42"), 0.6)]

    def stripes(p):
        c = p.c
        x0, x1, y0, h = px + 3.5, W - 1.5, gy - 1.1, 2.2
        c.save()
        c.rectangle(x0, y0, x1 - x0, h)
        c.clip()
        c.set_source_rgb(*WHITE)
        c.paint()
        c.set_source_rgb(*RED)
        x = x0
        while x < x1 + 4:
            c.move_to(x, y0 + h)
            c.line_to(x + 2.6, y0 + h)
            c.line_to(x + 2.6 + h, y0)
            c.line_to(x + h, y0)
            c.close_path()
            x += 5.2
        c.fill()
        c.restore()
    items.append(stripes)
    for x in (px + 34, W - 5):
        items += lens(x, gy - 3.2, 1.8, "red", "on")
    items.append(CAPTION_TEXT("LIGHTS FLASHING, GATE DOWN", W / 2, H - 2.8, cap=2.6))
    return W, H, items


def ens_sign():
    """Emergency Notification System sign (I-13): white legend on blue."""
    W, H = 48.0, 30.0
    items = [FACE(rect(0, 0, W, H, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
             T("REPORT EMERGENCY", W / 2, 5.6, 3.0, WHITE, maxw=41),
             T("OR PROBLEM TO", W / 2, 10.2, 3.0, WHITE, maxw=41),
             T("1-800-555-0199", W / 2, 15.6, 3.6, WHITE, maxw=41),
             T("CROSSING", W / 2, 20.8, 3.0, WHITE, maxw=41),
             T("123 456X", W / 2, 25.2, 3.0, WHITE, maxw=41)]
    return W, H, items


def rr_pavement():
    """Approach to a crossing: RXR pavement marking, stop line, tracks, and the
    W10-1 advance warning sign beside the road (drawn upright)."""
    lane = 16.0
    W, H = 70.0, 110.0
    cx = 26.0
    x0, x1 = cx - lane, cx + lane
    items = [BOX(0, 0, W, H, VERGE), BOX(x0, 0, 2 * lane, H, ASPHALT)]
    ty = 9.0
    for k in range(0, int(W) + 3, 3):
        items.append(BOX(k, ty - 3.6, 1.4, 7.2, TIE))
    items += [BOX(0, ty - 2.2, W, 0.9, RAIL), BOX(0, ty + 1.3, W, 0.9, RAIL)]
    items += [solid(cx - 0.5, ty + 6, H, MARK_YELLOW), solid(cx + 0.5, ty + 6, H, MARK_YELLOW),
              solid(x0 + 0.6, ty + 6, H, MARK_WHITE), solid(x1 - 0.6, ty + 6, H, MARK_WHITE)]
    items.append(BOX(cx + 0.6, ty + 12.0, lane - 1.2, 1.8, MARK_WHITE))          # stop line
    my, mh = 38.0, 34.0
    lx0, lx1 = cx + 1.4, x1 - 1.6
    items += [BOX(lx0, my, lx1 - lx0, 1.3, MARK_WHITE), BOX(lx0, my + mh, lx1 - lx0, 1.3, MARK_WHITE),
              S("M %f %f L %f %f M %f %f L %f %f" % (lx0 + 0.6, my + 5, lx1 - 0.6, my + mh - 3.7,
                                                      lx1 - 0.6, my + 5, lx0 + 0.6, my + mh - 3.7), 1.3, MARK_WHITE)]
    mid = (lx0 + lx1) / 2
    for x in (mid - 4.6, mid + 4.6):
        items.append(G([T("R", 0, 0, 3.0, MARK_WHITE)], x, my + mh / 2 + 0.6, (0.95, 2.4)))
    items.append(car(cx + lane / 2, H - 12.0, up=True, color=CAR_YOU, label="YOU"))
    sx, sy, r = 57.5, 52.0, 9.0
    items += [post(sx, sy, sy + 30, 1.3),
              FACE(Circle(sx, sy, r), YELLOW, BLACK, 0.25, 0.45),
              S("M %f %f L %f %f M %f %f L %f %f" % (sx - 5.2, sy - 5.2, sx + 5.2, sy + 5.2,
                                                      sx + 5.2, sy - 5.2, sx - 5.2, sy + 5.2), 1.2),
              T("R", sx - 5.6, sy, 2.5, BLACK), T("R", sx + 5.6, sy, 2.5, BLACK)]
    return W, H, items


# --------------------------------------------------------------------------
# Work zone

def orange_rect(w, h, *items):
    """Orange rectangular work-zone sign with a black border."""
    return w, h, [FACE(rect(0, 0, w, h, 1.5), ORANGE, BLACK, 0.5, 0.75)] + list(items)


def speed_assembly(fines):
    """WORK ZONE plaque (G20-5aP) over SPEED LIMIT 45 (R2-1), optional FINES
    DOUBLE plaque (R2-6P) below."""
    W = 30.0
    items = [FACE(rect(3, 0, 24, 9, 0.8), ORANGE, BLACK, 0.35, 0.55),
             T("WORK ZONE", 15, 4.5, 3.0, BLACK, maxw=20)]
    sy = 10.0
    items += [G(speed_limit("45")[2], 3, sy)]
    H = sy + 30
    if fines:
        items += [FACE(rect(3, H + 1, 24, 12, 0.8), WHITE, BLACK, 0.35, 0.55),
                  T("FINES", 15, H + 4.4, 3.2, BLACK, maxw=20), T("DOUBLE", 15, H + 9.4, 3.2, BLACK, maxw=20)]
        H += 13
    return W, H + 0.5, items


def arrow_board():
    """Flashing arrow panel on a trailer, arrow pointing left (merge left)."""
    W, H = 60.0, 50.0
    items = [BOX(0, 43, W, 3, ASPHALT),
             BOX(W / 2 - 1, 26, 2, 12, POLE), BOX(W / 2 - 12, 37, 24, 3, hexrgb("#E58A2B"), 0.6),
             DOT(W / 2 - 8, 41.5, 2.6, BLACK), DOT(W / 2 + 8, 41.5, 2.6, BLACK),
             BOX(4, 2, W - 8, 25, BLACK, 1.0)]
    # lamps: shaft along the middle, head at the left
    ly = 14.5
    pts = [(x, ly) for x in range(20, 52, 4)]
    pts += [(13, ly), (17, ly - 4), (21, ly - 8), (17, ly + 4), (21, ly + 8)]
    for (x, y) in pts:
        items.append(glow(x, y, 1.5, LIT["yellow"]))
    for (x, y) in pts:
        items.append(DOT(x, y, 1.35, LIT["yellow"]))
    items.append(CAPTION_TEXT("FLASHING", W / 2, H - 1.8, cap=2.4))
    return W, H, items


# --------------------------------------------------------------------------
# The table

# Railroad
scene("railroad-flashing-lights-gate", flashing_lights_gate())
scene("railroad-ens-sign", ens_sign())
scene("railroad-crossbuck-yield", crossbuck_assembly("yield"))
scene("railroad-crossbuck-stop", crossbuck_assembly("stop"))
scene("railroad-pavement-marking", rr_pavement())

# Work zone (RIGHT LANE CLOSED AHEAD, END ROAD WORK and the yellow BE PREPARED TO
# STOP are drawn by draw_signs.py; the orange work-zone version is drawn here)
scene("road-work-500-ft", warning(*dia_lines(["ROAD", "WORK", "500 FT"], 3.4, 4.9), bg=ORANGE))
scene("work-zone-be-prepared-to-stop", warning(*dia_lines(["BE", "PREPARED", "TO STOP"], 3.1, 4.7), bg=ORANGE))
scene("shoulder-work", warning(*dia_lines(["SHOULDER", "WORK"], 3.1, 5.0), bg=ORANGE))
scene("road-work-next-2-miles", orange_rect(48, 24, T("ROAD WORK", 24, 7.6, 4.4, maxw=40),
                                            T("NEXT 2 MILES", 24, 16.4, 4.4, maxw=40)))
scene("work-zone-speed-limit", speed_assembly(False))
scene("work-zone-fines-double", speed_assembly(True))
scene("arrow-board-merge-left", arrow_board())

