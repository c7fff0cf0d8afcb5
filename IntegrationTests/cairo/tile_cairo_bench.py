#!/usr/bin/python3
"""Times pycairo drawing map tiles' fills and lines (the display lists `tripshare gallery
basemap --tiles` writes), one tile per sample, cycling through each set's tiles: the p50 per
tile to set beside Benchmarks/BasemapBenchmarks' "... z15 256px tile ..." figures.

Usage: IntegrationTests/cairo/tile_cairo_bench.py DIR   (DIR holds sf-tile-X-Y.json, helsinki-tile-X-Y.json)
"""
import glob
import json
import os
import statistics
import sys
import time

import cairo

from cairo_displaylist import prepare, replay


def main():
    folder = sys.argv[1]
    print(f"cairo {cairo.cairo_version_string()}, pycairo {cairo.version}")
    for prefix in ("sf-tile", "helsinki-tile"):
        paths = sorted(glob.glob(os.path.join(folder, f"{prefix}-*.json")))
        if not paths:
            continue
        lists = []
        for path in paths:
            with open(path) as handle:
                display_list = json.load(handle)
            lists.append((display_list, prepare(display_list)))
        for display_list, prepared in lists:  # warm-up
            replay(display_list, prepared)
        samples = []
        deadline = time.perf_counter() + 3
        while time.perf_counter() < deadline or len(samples) < 64:
            display_list, prepared = lists[len(samples) % len(lists)]
            start = time.perf_counter()
            replay(display_list, prepared)
            samples.append((time.perf_counter() - start) * 1000)
        samples.sort()
        print(f"{prefix:<14} {len(paths)} tiles  p0 {samples[0]:.3f} ms  p25 {samples[len(samples) // 4]:.3f} ms  "
              f"p50 {statistics.median(samples):.3f} ms  n {len(samples)}")


if __name__ == "__main__":
    main()
