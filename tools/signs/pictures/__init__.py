"""PermitReady's sign and scene pictures (Banks/signs/<id>.png), drawn with cairo.

Shared kit: ``colors`` (palette, font, card), ``shapes`` (path tracing, sign
outlines), ``items`` (drawing items, text fitting), ``pictograms``, ``families``
(warning diamond, regulatory rectangle, plaques, STOP/YIELD, crossbuck),
``canvas`` (tables, rendering, command line), ``roads`` (top-down road kit).
Tables: ``signs_*`` (draw_signs.py) and ``scenes_*`` (draw_scenes.py), gathered
in ``catalog``.
"""
