"""Pictograms (people, vehicles, animals, service symbols), each a list of items
in its own unit coordinates; place one with ``G(pictogram(), x, y, scale)``.
Simplified drawings of the MUTCD symbols."""

from .colors import BLACK, RED, SIGNAL_GREEN, SIGNAL_YELLOW, YELLOW
from .items import (BGDOT, BGQUAD, DOT, ELLIPSE, F, RING, RJOIN, ROUND, S,
                    SHAPE)
from .shapes import rect

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

