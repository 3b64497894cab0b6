"""The canvas: picture tables, rendering a picture to PNG, shrinking it, the
contact sheet, and the command line both entry points share."""

import fnmatch
import os
import shutil
import subprocess
import sys

import cairo

from .colors import CARD, FONT
from .items import Pen

LONG_SIDE = 512                   # px, the long side of every picture


class Table(dict):
    """id -> (width, height, items), in drawing order; ``add`` refuses a repeat."""

    def add(self, pid, spec):
        assert pid not in self, pid
        self[pid] = spec


def merge(*tables):
    """One table from several, in order; an id may appear only once."""
    out = Table()
    for table in tables:
        for pid, spec in table.items():
            out.add(pid, spec)
    return out


def render(spec, path, pad, centre):
    """Draw ``spec`` scaled so its long side plus ``pad`` px margins is LONG_SIDE,
    on an opaque card (Telegram turns transparency black in its JPEGs).
    ``centre``: centre the drawing in the card (signs) rather than placing it at
    the top-left margin (scenes)."""
    w, h, items = spec
    s = (LONG_SIDE - 2 * pad) / max(w, h)
    W, H = round(w * s) + 2 * pad, round(h * s) + 2 * pad
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, W, H)
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(*CARD)                          # opaque: JPEG-safe
    ctx.paint()
    if centre:
        ctx.translate((W - w * s) / 2, (H - h * s) / 2)
    else:
        ctx.translate(pad, pad)
    ctx.scale(s, s)
    pen = Pen(ctx)
    for item in items:
        item(pen)
    surface.write_to_png(path)


def shrink(path):
    """Palette-quantise with pngquant and recompress with optipng, if present."""
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--speed", "1",
                        "--output", path, "64", path], check=False)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o2", path], check=False)


def contact_sheet(ids, out_dir, sheet_path, cell=150, cols=8):
    rows = (len(ids) + cols - 1) // cols
    sheet = cairo.ImageSurface(cairo.FORMAT_RGB24, cols * cell, rows * (cell + 16))
    c = cairo.Context(sheet)
    c.set_source_rgb(0.82, 0.84, 0.86)                 # darker than the cards
    c.paint()
    for n, sid in enumerate(ids):
        img = cairo.ImageSurface.create_from_png(os.path.join(out_dir, sid + ".png"))
        k = (cell - 10) / max(img.get_width(), img.get_height())
        x0, y0 = (n % cols) * cell, (n // cols) * (cell + 16)
        c.save()
        c.translate(x0 + (cell - img.get_width() * k) / 2, y0 + 4 + (cell - 10 - img.get_height() * k) / 2)
        c.scale(k, k)
        c.set_source_surface(img, 0, 0)
        c.paint()
        c.restore()
        c.set_source_rgb(0, 0, 0)
        c.select_font_face(FONT)
        c.set_font_size(10)
        c.move_to(x0 + 4, y0 + cell + 10)
        c.show_text(sid)
    sheet.write_to_png(sheet_path)


def _take(argv, flag):
    """Remove ``flag VALUE`` from argv; return (value or None, rest)."""
    if flag not in argv:
        return None, argv
    k = argv.index(flag)
    return argv[k + 1], argv[:k] + argv[k + 2:]


def cli(argv, table, noun, pad, centre, width, others=None):
    """``[ids...] [--out DIR] [--sheet PNG]``: draw the table's pictures (all, or
    the ids given; an id may be a shell pattern such as 'scene-*') into
    Banks/signs/ (or DIR), optionally a contact sheet.
    ``others``: (name, table) whose ids this table must not reuse."""
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    out_dir = os.path.join(root, "Banks", "signs")
    out, argv = _take(argv, "--out")           # draw somewhere else (for previews)
    out_dir = out or out_dir
    sheet, argv = _take(argv, "--sheet")
    ids = []
    for arg in argv or list(table):
        ids += [i for i in table if fnmatch.fnmatchcase(i, arg) and i not in ids] or [arg]
    if others:
        name, other = others
        clash = sorted(set(table) & set(other))
        if clash:
            sys.exit("ids also drawn by %s (rename them here): %s" % (name, ", ".join(clash)))
    unknown = [i for i in ids if i not in table]
    if unknown:
        sys.exit("unknown %s id(s): %s" % (noun, ", ".join(unknown)))
    os.makedirs(out_dir, exist_ok=True)
    for sid in ids:
        path = os.path.join(out_dir, sid + ".png")
        render(table[sid], path, pad, centre)
        shrink(path)
        print("%-*s %6d bytes" % (width, sid, os.path.getsize(path)))
    if sheet:
        contact_sheet(ids, out_dir, sheet)
        print("contact sheet:", sheet)
