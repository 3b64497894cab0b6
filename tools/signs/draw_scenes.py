#!/usr/bin/env python3
"""Draw the PermitReady pictures that are not plain road signs.

Signal displays (traffic lights, arrows, lane-use control signals, pedestrian
signals, pedestrian hybrid beacons, rectangular rapid-flashing beacons), top-down
pavement-marking diagrams, railroad-crossing assemblies and a few work-zone signs.
Each picture is ``Banks/signs/<id>.png`` and has an entry in ``Banks/signs.json``
(groups ``signal``, ``marking``, ``railroad``, ``workZone``). Lesson scenes
(``scene-*``: four-way stop, turn lanes, two-second rule, school bus stop, blind
spots; ``pictures/scenes_intersections.py`` and ``pictures/scenes_space.py``) are
drawn the same way but are not in ``signs.json`` yet.

The scenes are the tables in ``pictures/scenes_*.py``; they reuse the sign kit
in ``pictures/`` (see draw_signs.py). Run it by hand from the repository root::

    python3 tools/signs/draw_scenes.py                    # all scenes -> Banks/signs/
    python3 tools/signs/draw_scenes.py signal-red hawk-dark   # just these ids
    python3 tools/signs/draw_scenes.py 'scene-*'              # ids matching a pattern
    python3 tools/signs/draw_scenes.py --sheet /tmp/scenes.png  # also a contact sheet
    python3 tools/signs/draw_scenes.py --out /tmp/preview       # draw somewhere else

Needs pycairo and the DejaVu fonts (see draw_signs.py); pngquant/optipng are
used when present. Every picture is flattened onto an opaque light background
(Telegram recompresses photos to JPEG, where transparency turns black); its long
side is 512 px.

Shapes, colours and legends follow the MUTCD 11th edition (December 2023);
drawings are simplified diagrams, not engineering drawings. A flashing light is
shown with short rays around the lit lens and the word FLASHING underneath.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pictures.canvas import cli  # noqa: E402
from pictures.catalog import SCENES, SIGNS  # noqa: E402

PAD = 10                          # px of background margin (drawing at top-left)


def main(argv):
    cli(argv, SCENES, "scene", pad=PAD, centre=False, width=32,
        others=("draw_signs.py", SIGNS))


if __name__ == "__main__":
    main(sys.argv[1:])
