#!/usr/bin/python3
"""Writes the display-list fixtures the Raster tests, benchmarks and Cairo scripts share.

From the real OSRM route in shared/fixtures/osrm/portugal_to_korea.json (step geometries,
Google encoded polylines, precision 5) it takes the first 2,000 and 20,000 vertices,
projects them with Web Mercator into a 640x640 box (48 px padding) and writes:

  route-2k.json, route-20k.json   route lines only: an 8 px blue route with round joins and
                                  caps, traffic-coloured runs on top (the Cairo comparison)
  scene-2k.json, scene-20k.json   the same plus four markers (two circles, a rounded-rect
                                  badge, a rotated scaled icon) and a text label (benchmarks)

Usage: scripts/generate/route_scenes.py [OSRM_JSON] [OUT_DIR]
Map data (c) OpenStreetMap contributors, ODbL; route from Project-OSRM/osrm-backend
test data, BSD-2-Clause.
"""
import base64
import io
import json
import math
import os
import sys

import cairo

# The Google polyline decoder the navigation expectations already use.
from nav_import_expectations import decode as decode_polyline

SIZE = 640
PADDING = 48


def route_points(path):
    with open(path) as handle:
        route = json.load(handle)["routes"][0]
    points = []
    for step in route["legs"][0]["steps"]:
        for point in decode_polyline(step["geometry"], 5):
            if not points or points[-1] != point:
                points.append(point)
    return points


def project(points):
    def mercator(lat, lng):
        x = (lng + 180) / 360
        s = math.sin(math.radians(lat))
        y = 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)
        return x, y

    world = [mercator(lat, lng) for lat, lng in points]
    xs = [p[0] for p in world]
    ys = [p[1] for p in world]
    span = max(max(xs) - min(xs), max(ys) - min(ys))
    scale = (SIZE - 2 * PADDING) / span
    cx = (max(xs) + min(xs)) / 2
    cy = (max(ys) + min(ys)) / 2
    return [[round(SIZE / 2 + (x - cx) * scale, 3), round(SIZE / 2 + (y - cy) * scale, 3)] for x, y in world]


def style(width):
    return {"width": width, "cap": "round", "join": "round", "miterLimit": 10}


def route_ops(points):
    count = len(points)
    ops = [{"op": "polyline", "points": points, "color": "#4285F4", "style": style(8)}]
    # Traffic runs as fractions of the route: slow (amber) and jam (red), like Google's.
    runs = [(0.10, 0.18, "#F29900"), (0.30, 0.34, "#D93025"), (0.34, 0.42, "#F29900"),
            (0.55, 0.60, "#D93025"), (0.72, 0.80, "#F29900"), (0.90, 0.93, "#D93025")]
    for start, end, color in runs:
        run = points[int(start * count):int(end * count) + 1]
        ops.append({"op": "polyline", "points": run, "color": color, "style": style(8)})
    return ops


def icon_png():
    """A 24x24 vehicle arrow with a soft shadow: transparency, curves, anti-aliasing."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 24, 24)
    context = cairo.Context(surface)
    context.arc(12, 12, 11, 0, 2 * math.pi)
    context.set_source_rgba(1, 1, 1, 0.9)
    context.fill()
    context.move_to(12, 3)
    context.line_to(19, 20)
    context.line_to(12, 16)
    context.line_to(5, 20)
    context.close_path()
    context.set_source_rgb(0.10, 0.45, 0.91)
    context.fill()
    buffer = io.BytesIO()
    surface.write_to_png(buffer)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def marker_ops(points):
    start, end = points[0], points[-1]
    middle = points[len(points) // 2]
    angle = math.radians(30)
    scale = 1.5
    cos, sin = math.cos(angle) * scale, math.sin(angle) * scale
    # Icon centred on the middle vertex: translate(middle) * rotate * scale * translate(-12,-12).
    tx = middle[0] - (cos * 12 - sin * 12)
    ty = middle[1] - (sin * 12 + cos * 12)
    badge_x, badge_y = start[0] + 14, start[1] - 34
    return [
        {"op": "circle", "center": start, "radius": 9, "fill": "#188038", "stroke": "#FFFFFF", "strokeWidth": 3},
        {"op": "circle", "center": end, "radius": 9, "fill": "#D93025", "stroke": "#FFFFFF", "strokeWidth": 3},
        {"op": "image", "png": icon_png(),
         "transform": {"a": cos, "b": sin, "c": -sin, "d": cos, "tx": tx, "ty": ty}},
        {"op": "roundedRect", "x": badge_x, "y": badge_y, "width": 62, "height": 24, "radius": 12,
         "fill": "#202124", "stroke": "#FFFFFF", "strokeWidth": 2},
        {"op": "text", "text": "4 min", "origin": [badge_x + 11, badge_y + 17], "size": 14,
         "color": "#FFFFFF", "bold": True},
    ]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../../../shared/fixtures/osrm/portugal_to_korea.json")
    if not os.path.exists(source):
        source = "/work/shared/fixtures/osrm/portugal_to_korea.json"
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "../../Tests/RasterTests/Fixtures")
    points = route_points(source)
    for label, count in (("2k", 2000), ("20k", 20000)):
        projected = project(points[:count])
        lines = {"width": SIZE, "height": SIZE, "background": "#E8EAED", "ops": route_ops(projected)}
        scene = dict(lines, ops=lines["ops"] + marker_ops(projected))
        for name, content in (("route", lines), ("scene", scene)):
            with open(os.path.join(out, f"{name}-{label}.json"), "w") as handle:
                json.dump(content, handle, separators=(",", ":"))
                handle.write("\n")
    print("wrote", out)


if __name__ == "__main__":
    main()
