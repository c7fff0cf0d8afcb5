#!/bin/sh
# Compares the basemap's fills and lines with Cairo drawing the same geometry (issue 14:
# MAD <= 0.05/255 per channel), then times Cairo on the San Francisco z15 view for the
# speed ratio against Benchmarks/BasemapBenchmarks ("SF z15 640x480 ...").
# Our side is the basemap as drawn (each tile's geometry clipped to its square, every
# layer one polygon set); Cairo fills the same polygons and strokes the same centre lines
# (all tiles' lines of a layer as one path). Labels and the attribution are left out.
# Usage: scripts/basemap_cairo_compare.sh [OUT_DIR]   (needs python3-cairo and ../shared)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-/tmp/basemap-cairo}
mkdir -p "$OUT"
cd "$ROOT"
swift build --product tripshare >/dev/null
.build/debug/tripshare gallery basemap --out "$OUT" --fixtures "$ROOT/../shared/fixtures/basemap" \
    --streets-style "$ROOT/Tests/BasemapTests/Fixtures/mapbox-streets-v7.json" >/dev/null
status=0
for json in "$OUT"/*.json; do
    name=$(basename "$json" .json)
    /usr/bin/python3 "$ROOT/scripts/cairo_compare.py" "$json" "$OUT/$name.png" --diff "$OUT/$name-diff.png" \
        --cairo-out "$OUT/$name-cairo.png" --check || status=1
done
/usr/bin/python3 "$ROOT/scripts/cairo_bench.py" "$OUT/sf-z15.json"
exit $status
