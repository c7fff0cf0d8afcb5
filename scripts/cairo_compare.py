#!/usr/bin/python3
"""Compares our PNG of a display list with Cairo drawing the same list.

Usage:
  tripshare gallery display-lists Tests/RasterTests/Fixtures/*.json --out /tmp/cmp
  scripts/cairo_compare.py /tmp/cmp/route-2k.json /tmp/cmp/route-2k.png [--diff OUT.png]

The command writes, for every display-list file, the list (NAME.json) and our
rendering (NAME.png) into the directory. This script replays the list with pycairo
(Debian: apt-get install python3-cairo; run with /usr/bin/python3), then reports per
channel the mean absolute difference in 1/255 units and the share of pixels with any
channel off by more than 64. Exit status 1 when the route-line targets are missed
(MAD <= 0.05 per channel, < 0.02% of pixels off by > 64) and --check is given.
"""
import argparse
import json
import sys

import cairo

from cairo_displaylist import replay


def channels(surface):
    """Premultiplied ARGB32 bytes as (b, g, r, a) per pixel, little-endian."""
    data = bytes(surface.get_data())
    stride = surface.get_stride()
    width, height = surface.get_width(), surface.get_height()
    rows = [data[y * stride:y * stride + width * 4] for y in range(height)]
    return b"".join(rows), width, height


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("display_list")
    parser.add_argument("ours")
    parser.add_argument("--diff", help="write an amplified difference image here")
    parser.add_argument("--cairo-out", help="write Cairo's rendering here")
    parser.add_argument("--check", action="store_true", help="fail when the targets are missed")
    args = parser.parse_args()

    with open(args.display_list) as handle:
        display_list = json.load(handle)
    reference = replay(display_list)
    if args.cairo_out:
        reference.write_to_png(args.cairo_out)
    ours = cairo.ImageSurface.create_from_png(args.ours)
    if (ours.get_width(), ours.get_height()) != (reference.get_width(), reference.get_height()):
        print("size mismatch", file=sys.stderr)
        return 2
    a, width, height = channels(reference)
    b, _, _ = channels(ours)
    totals = [0, 0, 0, 0]
    off = 0
    differing = 0
    worst = 0
    diff_pixels = bytearray(len(a))
    for index in range(0, len(a), 4):
        pixel_worst = 0
        for channel in range(4):
            delta = abs(a[index + channel] - b[index + channel])
            totals[channel] += delta
            if delta > pixel_worst:
                pixel_worst = delta
        if pixel_worst:
            differing += 1
        if pixel_worst > 64:
            off += 1
        worst = max(worst, pixel_worst)
        level = min(255, pixel_worst * 8)
        diff_pixels[index:index + 4] = bytes((level, level, level, 255)) if pixel_worst else bytes((0, 0, 0, 255))
    pixels = width * height
    names = ["B", "G", "R", "A"]
    mad = {names[c]: totals[c] / pixels for c in range(4)}
    share = 100.0 * off / pixels
    print(f"{args.display_list}: {width}x{height}")
    print("  MAD per channel (/255): " + ", ".join(f"{n} {mad[n]:.4f}" for n in ("R", "G", "B", "A")))
    print(f"  pixels differing: {differing} ({100.0 * differing / pixels:.3f}%), worst channel delta {worst}")
    print(f"  pixels off by > 64: {off} ({share:.4f}%)")
    if args.diff:
        surface = cairo.ImageSurface.create_for_data(diff_pixels, cairo.FORMAT_ARGB32, width, height, width * 4)
        surface.write_to_png(args.diff)
    passed = max(mad.values()) <= 0.05 and share < 0.02
    print("  targets (MAD <= 0.05, < 0.02% off by > 64):", "met" if passed else "MISSED")
    return 0 if passed or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
