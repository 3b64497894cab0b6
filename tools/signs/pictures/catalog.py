"""Every picture id, in drawing order: SIGNS (road signs, drawn by
draw_signs.py) and SCENES (signal displays, markings, railroad and work-zone
scenes, drawn by draw_scenes.py)."""

from . import (scenes_intersections, scenes_markings, scenes_rail_work,
               scenes_signals, scenes_space, signs_guide, signs_regulatory,
               signs_school_rail_work, signs_warning)
from .canvas import merge

SIGNS = merge(signs_regulatory.SIGNS, signs_warning.SIGNS,
              signs_school_rail_work.SIGNS, signs_guide.SIGNS)

SCENES = merge(scenes_signals.SCENES, scenes_markings.SCENES, scenes_rail_work.SCENES,
               scenes_intersections.SCENES, scenes_space.SCENES)
