#!/usr/bin/env python3
"""Draw the PermitReady road-sign pictures from vector descriptions.

Every sign in ``Banks/signs.json`` has a picture ``Banks/signs/<id>.png``. The
signs are drawn with cairo from the tables in ``pictures/signs_*.py``
(regulatory, warning, school/railroad/work zone, guide): each entry is a sign
face (shape, colours, border) plus a few items (text, arrows, filled/stroked
paths, small pictograms). The shared drawing kit is in ``pictures/``
(colors, shapes, items, pictograms, families, canvas).

Run it by hand from the repository root (it is not part of CI)::

    python3 tools/signs/draw_signs.py                  # all signs -> Banks/signs/
    python3 tools/signs/draw_signs.py stop yield       # just these ids
    python3 tools/signs/draw_signs.py --sheet /tmp/sheet.png   # also a contact sheet
    python3 tools/signs/draw_signs.py --out /tmp/preview       # draw somewhere else

Needs:
  * Python 3.9+ and pycairo   (Debian: ``apt-get install python3-cairo``,
                               or ``pip install pycairo``)
  * the DejaVu fonts           (Debian: ``fonts-dejavu-core``)
  * optional: ``pngquant`` and/or ``optipng`` on PATH to shrink the files
    (each PNG is then a small palette image, roughly 3-15 KB). Without them
    the script still works; files are plain RGB and somewhat larger.

Coordinates: each sign is described in inches, roughly at its MUTCD size
(a warning diamond is 30 x 30, a Speed Limit sign 24 x 30), origin at the
top-left corner of the sign's bounding box, y growing downward. The picture
is scaled so its long side is 512 px and flattened onto an opaque light-grey
card with a small margin (Telegram recompresses photos to JPEG, where a
transparent background would turn black).
Shapes and colours follow the federal MUTCD; symbols are simplified
drawings of the MUTCD symbols, not exact reproductions of the Standard
Highway Signs book.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pictures.canvas import cli  # noqa: E402
from pictures.catalog import SIGNS  # noqa: E402

PAD = 14                          # px of background margin around the sign (centred)


def main(argv):
    cli(argv, SIGNS, "sign", pad=PAD, centre=True, width=28)


if __name__ == "__main__":
    main(sys.argv[1:])
