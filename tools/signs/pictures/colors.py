"""Colours, the picture background and the legend font, shared by every picture."""


def hexrgb(h):
    h = h.lstrip("#")
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


# --------------------------------------------------------------------------
# Sign colours (sRGB approximations of the FHWA sign colours)

RED = hexrgb("#C8102E")
WHITE = hexrgb("#FFFFFF")
BLACK = hexrgb("#111111")
YELLOW = hexrgb("#FFCD00")
ORANGE = hexrgb("#F7801E")
FYG = hexrgb("#CCE61C")          # fluorescent yellow-green (school)
GREEN = hexrgb("#00703C")
BLUE = hexrgb("#0B4EA2")
SIGNAL_YELLOW = hexrgb("#FFB000")
SIGNAL_GREEN = hexrgb("#00A651")

FONT = "DejaVu Sans"
CAP = 0.729                       # DejaVu Sans Bold cap height, in em
CARD = hexrgb("#F3F4F6")          # opaque light-grey background behind every picture

# --------------------------------------------------------------------------
# Scene colours: signal hardware, lit/dark lenses, road surfaces and markings

HOUSING = hexrgb("#1E1F22")
LENS_WELL = hexrgb("#0B0B0C")
POLE = hexrgb("#8A9099")
LIT = {"red": hexrgb("#FF2A1F"), "yellow": hexrgb("#FFB81C"),
       "green": hexrgb("#16D27A")}
DIM = {"red": hexrgb("#4A1512"), "yellow": hexrgb("#4A3A12"),
       "green": hexrgb("#123F2A")}
LUNAR_WHITE = hexrgb("#F4F1E6")
PORTLAND_ORANGE = hexrgb("#FF6F1A")
ASPHALT = hexrgb("#55595F")
SHOULDER = hexrgb("#6B7077")
VERGE = hexrgb("#B9C9A7")                          # grass beside the road
MARK_WHITE = hexrgb("#F7F7F7")
MARK_YELLOW = hexrgb("#F5C518")
CAR_YOU = hexrgb("#2F6FDE")
CAR_OTHER = hexrgb("#D7DBE0")
RAIL = hexrgb("#3A3A3A")
TIE = hexrgb("#7B6654")
CAPTION = hexrgb("#33363B")
