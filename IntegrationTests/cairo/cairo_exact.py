"""A near-exact reference for a display list of fills and lines, made with Cairo itself.

Cairo's scan converter is an approximation: in rows where no edge starts, ends or crosses
it computes an edge's area from its x at the first sub-row's centre (the edge lands 1/30
pixel off) and spreads a shallow edge's height over the cells it crosses in fifteenths
with the remainders carried; elsewhere it samples 15 sub-rows. Each pixel's coverage can be
off by several of 255 where ours (exact area) is not. So that a comparison can tell which
of the two is off, this draws every operation alone at FACTOR times the resolution (Cairo's
error shrinks with the pixel), averages each FACTOR×FACTOR block into a coverage, and
composites the operations as both renderers do: each colour scaled by its coverage and
blended source-over with pixman's rounding. 16 and 32 give pictures within 0.006/255 of
each other on the basemap views.

Only fill, stroke and polyline operations are supported (a basemap's fills and lines);
text and images have no exact area to compare. Needs Debian's python3-cairo and
python3-numpy (run with /usr/bin/python3).
"""
import cairo
import numpy

from cairo_displaylist import add_path, matrix, prepare, rgba, set_style


def _coverage(op, surface, factor):
    """The share of each pixel the operation covers, 0…255 as floats. `surface` is an A8
    surface factor times the picture's size, reused (cleared) for every operation."""
    context = cairo.Context(surface)
    context.set_operator(cairo.OPERATOR_CLEAR)
    context.paint()
    context.set_operator(cairo.OPERATOR_OVER)
    # The operation's own transform (user space to device pixels), then the supersampling.
    device = matrix(op.get("transform"))
    device = device.multiply(cairo.Matrix(factor, 0, 0, factor, 0, 0))
    context.set_matrix(device)
    context.set_source_rgba(0, 0, 0, 1)
    kind = op["op"]
    if kind == "fill":
        add_path(context, op["path"])
        context.set_fill_rule(cairo.FILL_RULE_EVEN_ODD if op.get("rule") == "evenOdd" else cairo.FILL_RULE_WINDING)
        context.fill()
    elif kind == "stroke":
        add_path(context, op["path"])
        set_style(context, op["style"])
        context.stroke()
    elif kind == "polyline":
        context.append_path(op["cairo_path"])
        set_style(context, op["style"])
        context.stroke()
    else:
        raise ValueError(f"the exact reference draws fills and lines only, not '{kind}'")
    surface.flush()
    width, height = surface.get_width() // factor, surface.get_height() // factor
    mask = numpy.ndarray((height * factor, surface.get_stride()), numpy.uint8, surface.get_data())
    mask = mask[:, :width * factor].reshape(height, factor, width, factor)
    return mask.sum(axis=(1, 3), dtype=numpy.int64) / float(factor * factor)


def _premultiplied(red, green, blue, alpha):
    """A colour (0-1 channels) premultiplied as Cairo hands it to pixman: in doubles, rounded
    to 16 bits, then truncated to 8."""
    return [int(value * alpha * 65535 + 0.5) >> 8 for value in (red, green, blue)] + [int(alpha * 65535 + 0.5) >> 8]


def _multiply(values, alpha):
    """round(values·alpha/255) per element, pixman's way."""
    product = values * alpha + 128
    return (product + (product >> 8)) >> 8


def supersampled(display_list, factor=16):
    """The reference as a Cairo ARGB32 surface (premultiplied, as `replay` returns)."""
    width, height = display_list["width"], display_list["height"]
    pixels = numpy.zeros((height, width, 4), numpy.int64)  # R, G, B, A premultiplied
    if display_list.get("background"):
        pixels[:, :] = _premultiplied(*rgba(display_list["background"]))
    canvas = cairo.ImageSurface(cairo.FORMAT_A8, width * factor, height * factor)
    for op in prepare(display_list):
        coverage = numpy.rint(_coverage(op, canvas, factor)).astype(numpy.int64)
        red, green, blue, alpha = rgba(op["color"])
        source = numpy.array(_premultiplied(red, green, blue, alpha * op.get("opacity", 1)), numpy.int64)
        scaled = _multiply(source[None, None, :], coverage[:, :, None])
        pixels = scaled + _multiply(pixels, 255 - scaled[:, :, 3:4])
    # Cairo's ARGB32 is B, G, R, A in memory on little-endian hosts.
    packed = numpy.stack([pixels[:, :, 2], pixels[:, :, 1], pixels[:, :, 0], pixels[:, :, 3]], axis=2).astype(numpy.uint8)
    return cairo.ImageSurface.create_for_data(bytearray(packed.tobytes()), cairo.FORMAT_ARGB32, width, height, width * 4)
