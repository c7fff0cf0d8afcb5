#!/bin/sh
# Map tile speed against Cairo (issue 33): writes the fills and lines of the 16 z15 tiles
# Benchmarks/BasemapBenchmarks draws over San Francisco and over Helsinki as display lists,
# and times pycairo drawing them one tile per sample (p50 over the tiles), for the ratio
# against the "... z15 256px tile ..." benchmarks run in the same session:
#   cd Benchmarks && swift package benchmark --target BasemapBenchmarks --filter "256px tile"
# Usage: scripts/cairo/tile_bench.sh [OUT_DIR]   (needs ../shared, and Debian's python3-cairo)
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-/tmp/tripshare-tile-lists}
mkdir -p "$OUT"
cd "$ROOT"
swift build -c release --product tripshare >/dev/null
.build/release/tripshare gallery basemap --tiles --out "$OUT" --fixtures "$ROOT/../shared/fixtures/basemap" \
    --streets-style "$ROOT/Tests/BasemapTests/Fixtures/mapbox-streets-v7.json" --helsinki "$ROOT/data-samples/helsinki.pmtiles"
exec /usr/bin/python3 "$ROOT/scripts/cairo/tile_cairo_bench.py" "$OUT"
