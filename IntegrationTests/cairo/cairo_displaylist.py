"""Replays a Raster DisplayList JSON with pycairo (Debian python3-cairo).

Shared by cairo_compare.py and cairo_bench.py. Cairo draws with its defaults for our
purposes: ANTIALIAS_DEFAULT (grey), tolerance 0.1, OPERATOR_OVER, the same caps, joins,
widths and miter limits; the background is painted with OPERATOR_SOURCE as our canvas
starts filled with it.
"""
import base64
import io
import math

import cairo

CAPS = {"butt": cairo.LINE_CAP_BUTT, "round": cairo.LINE_CAP_ROUND, "square": cairo.LINE_CAP_SQUARE}
JOINS = {"miter": cairo.LINE_JOIN_MITER, "round": cairo.LINE_JOIN_ROUND, "bevel": cairo.LINE_JOIN_BEVEL}
KAPPA = 0.5522847498307936


def rgba(text):
    value = text.lstrip("#")
    channels = [int(value[i:i + 2], 16) / 255 for i in range(0, len(value), 2)]
    return channels if len(channels) == 4 else channels + [1.0]


def matrix(transform):
    if transform is None:
        return cairo.Matrix()
    return cairo.Matrix(transform["a"], transform["b"], transform["c"], transform["d"], transform["tx"], transform["ty"])


def add_path(context, commands):
    for command in commands:
        verb, values = command[0], command[1:]
        if verb == "M":
            context.move_to(*values)
        elif verb == "L":
            context.line_to(*values)
        elif verb == "Q":
            x0, y0 = context.get_current_point()
            cx, cy, x, y = values
            context.curve_to(x0 + 2 / 3 * (cx - x0), y0 + 2 / 3 * (cy - y0),
                             x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y), x, y)
        elif verb == "C":
            context.curve_to(*values)
        elif verb == "Z":
            context.close_path()


def add_circle(context, cx, cy, r):
    # The same four cubic arcs as Raster's Path.circle, so the geometry is identical.
    k = r * KAPPA
    context.move_to(cx + r, cy)
    context.curve_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r)
    context.curve_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy)
    context.curve_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r)
    context.curve_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy)
    context.close_path()


def add_rounded_rect(context, x, y, w, h, r):
    r = max(0.0, min(r, min(w, h) / 2))
    k = r * KAPPA
    right, bottom = x + w, y + h
    context.move_to(x + r, y)
    context.line_to(right - r, y)
    context.curve_to(right - r + k, y, right, y + r - k, right, y + r)
    context.line_to(right, bottom - r)
    context.curve_to(right, bottom - r + k, right - r + k, bottom, right - r, bottom)
    context.line_to(x + r, bottom)
    context.curve_to(x + r - k, bottom, x, bottom - r + k, x, bottom - r)
    context.line_to(x, y + r)
    context.curve_to(x, y + r - k, x + r - k, y, x + r, y)
    context.close_path()


def set_style(context, style):
    context.set_line_width(style["width"])
    context.set_line_cap(CAPS[style.get("cap", "round")])
    context.set_line_join(JOINS[style.get("join", "round")])
    context.set_miter_limit(style.get("miterLimit", 10))
    dash = style.get("dash")
    context.set_dash(dash["lengths"], dash.get("offset", 0)) if dash else context.set_dash([])


def prepare(display_list):
    """Pre-builds what does not depend on the target (decoded images, recorded paths) so
    that timing loops measure Cairo's drawing, not Python's."""
    scratch = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, 1, 1))
    prepared = []
    for op in display_list["ops"]:
        entry = dict(op)
        if op["op"] == "polyline":
            scratch.new_path()
            points = op["points"]
            scratch.move_to(*points[0])
            for point in points[1:]:
                scratch.line_to(*point)
            entry["cairo_path"] = scratch.copy_path()
        elif op["op"] == "image":
            entry["surface"] = cairo.ImageSurface.create_from_png(io.BytesIO(base64.b64decode(op["png"])))
        prepared.append(entry)
    return prepared


def replay(display_list, prepared=None, surface=None):
    prepared = prepared if prepared is not None else prepare(display_list)
    if surface is None:
        surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, display_list["width"], display_list["height"])
    context = cairo.Context(surface)
    context.set_antialias(cairo.ANTIALIAS_DEFAULT)
    if display_list.get("background"):
        context.set_operator(cairo.OPERATOR_SOURCE)
        context.set_source_rgba(*rgba(display_list["background"]))
        context.paint()
    context.set_operator(cairo.OPERATOR_OVER)
    for op in prepared:
        kind = op["op"]
        context.save()
        if kind == "polyline":
            context.new_path()
            context.append_path(op["cairo_path"])
            set_style(context, op["style"])
            context.set_source_rgba(*rgba(op["color"])[:3], rgba(op["color"])[3] * op.get("opacity", 1))
            context.stroke()
        elif kind == "fill":
            context.set_matrix(matrix(op.get("transform")))
            add_path(context, op["path"])
            context.set_fill_rule(cairo.FILL_RULE_EVEN_ODD if op.get("rule") == "evenOdd" else cairo.FILL_RULE_WINDING)
            context.identity_matrix()
            context.set_source_rgba(*rgba(op["color"])[:3], rgba(op["color"])[3] * op.get("opacity", 1))
            context.fill()
        elif kind == "stroke":
            context.set_matrix(matrix(op.get("transform")))
            add_path(context, op["path"])
            set_style(context, op["style"])
            context.set_source_rgba(*rgba(op["color"])[:3], rgba(op["color"])[3] * op.get("opacity", 1))
            context.stroke()
        elif kind in ("circle", "roundedRect"):
            if kind == "circle":
                add_circle(context, op["center"][0], op["center"][1], op["radius"])
            else:
                add_rounded_rect(context, op["x"], op["y"], op["width"], op["height"], op["radius"])
            if op.get("fill"):
                context.set_source_rgba(*rgba(op["fill"]))
                context.fill_preserve()
            if op.get("stroke") and op.get("strokeWidth"):
                context.set_source_rgba(*rgba(op["stroke"]))
                context.set_line_width(op["strokeWidth"])
                context.set_line_cap(cairo.LINE_CAP_BUTT)
                context.set_line_join(cairo.LINE_JOIN_ROUND)
                context.stroke()
            context.new_path()
        elif kind == "image":
            context.set_matrix(matrix(op["transform"]))
            context.set_source_surface(op["surface"], 0, 0)
            context.get_source().set_filter(cairo.FILTER_BILINEAR)
            context.paint_with_alpha(op.get("opacity", 1))
        elif kind == "text":
            bold = cairo.FONT_WEIGHT_BOLD if op.get("bold") else cairo.FONT_WEIGHT_NORMAL
            context.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL, bold)
            context.set_font_size(op["size"])
            context.set_source_rgba(*rgba(op["color"]))
            context.move_to(*op["origin"])
            context.show_text(op["text"])
        context.restore()
    surface.flush()
    return surface
