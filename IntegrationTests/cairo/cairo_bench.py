#!/usr/bin/python3
"""Times Cairo (pycairo, Debian python3-cairo) drawing the same display lists as the
Raster benchmarks, for side-by-side ratios.

Usage: IntegrationTests/cairo/cairo_bench.py [NAME|PATH.json ...]   (default: scene-2k scene-20k route-2k)
A NAME is a fixture of Tests/RasterTests/Fixtures; a path is any display list, e.g. one
written by `tripshare render --display-list` (the RenderBenchmarks scenes).
Run it in the same session as
  cd Benchmarks && swift package benchmark --target RasterBenchmarks
Paths are recorded once (copy_path) and images decoded once, so the loop measures
Cairo's stroking, rasterising and compositing (plus a little Python per operation), not
Python building paths point by point. "draw+png" adds write_to_png with libpng's
defaults, as an application using Cairo would.
"""
import io
import json
import os
import statistics
import sys
import time

import cairo

from cairo_displaylist import prepare, replay

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "..", "..", "Tests", "RasterTests", "Fixtures")


def measure(function, seconds=2.0, minimum=20):
    for _ in range(5):
        function()
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(samples) < minimum:
        start = time.perf_counter()
        function()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return samples[0], samples[len(samples) // 4], statistics.median(samples), len(samples)


def main():
    names = sys.argv[1:] or ["scene-2k", "scene-20k", "route-2k"]
    print(f"cairo {cairo.cairo_version_string()}, pycairo {cairo.version}")
    print(f"{'list':<12} {'what':<10} {'p0 ms':>8} {'p25 ms':>8} {'p50 ms':>8} {'n':>6}")
    for name in names:
        path = name if name.endswith(".json") else os.path.join(FIXTURES, f"{name}.json")
        with open(path) as handle:
            display_list = json.load(handle)
        prepared = prepare(display_list)

        def draw():
            return replay(display_list, prepared)

        def draw_png():
            surface = replay(display_list, prepared)
            buffer = io.BytesIO()
            surface.write_to_png(buffer)
            return buffer

        for label, function in (("draw", draw), ("draw+png", draw_png)):
            p0, p25, p50, count = measure(function)
            print(f"{os.path.basename(name):<12} {label:<10} {p0:8.3f} {p25:8.3f} {p50:8.3f} {count:6d}")
        size = len(draw_png().getvalue())
        print(f"{os.path.basename(name):<12} png bytes  {size}")


if __name__ == "__main__":
    main()
