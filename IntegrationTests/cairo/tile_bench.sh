#!/bin/sh
# Map tile speed against Cairo (issue 33): writes the fills and lines of the z15 tiles
# Benchmarks/BasemapBenchmarks draws over San Francisco and over Helsinki (a label block's
# tiles with data) as display lists, and times pycairo drawing them one tile per sample (p50
# over the tiles), for the ratio against the "... z15 256px tile ..." benchmarks run in the
# same session:
#   cd Benchmarks && ./.build/release/BasemapBenchmarks --filter ".*z15 256px tile.*"
# Usage: [TRIPSHARE=BINARY] IntegrationTests/cairo/tile_bench.sh [OUT_DIR]
#   (needs ../shared, and Debian's python3-cairo). TRIPSHARE is the tripshare that writes the
#   display lists (any build: they do not depend on its speed); without it this builds one
#   (swift build -c release, which takes long).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-/tmp/tripshare-tile-lists}
mkdir -p "$OUT"
rm -f "$OUT"/sf-tile-*.json "$OUT"/helsinki-tile-*.json
cd "$ROOT"
if [ -z "${TRIPSHARE:-}" ]; then
    swift build -c release --product tripshare >/dev/null
    TRIPSHARE=.build/release/tripshare
fi
"$TRIPSHARE" gallery basemap --tiles --out "$OUT" --fixtures "$ROOT/../shared/fixtures/basemap" \
    --streets-style "$ROOT/Tests/BasemapTests/Fixtures/mapbox-streets-v7.json" --helsinki "$ROOT/data-samples/helsinki.pmtiles"
exec /usr/bin/python3 "$ROOT/IntegrationTests/cairo/tile_cairo_bench.py" "$OUT"
