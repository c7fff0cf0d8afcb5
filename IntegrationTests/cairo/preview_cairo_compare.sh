#!/bin/sh
# Compares the route lines of trip previews with Cairo drawing the same display lists
# (DESIGN §7: MAD <= 0.05/255 per channel, < 0.02% of pixels off by more than 64), then
# times Cairo on the full preview scenes of Benchmarks/RenderBenchmarks.
# Usage: IntegrationTests/cairo/preview_cairo_compare.sh [--no-timing] [OUT_DIR]
# (needs python3-cairo; a built tripshare; --no-timing only compares, as scripts/test does)
set -eu
timing=1
if [ "${1:-}" = "--no-timing" ]; then timing=0; shift; fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-/tmp/preview-cairo}
BIN="$ROOT/.build/debug/tripshare"
[ -x "$BIN" ] || BIN="$ROOT/.build/release/tripshare"
TRIPS="$ROOT/Tests/RenderTests/Fixtures/trips"
AT=2025-02-05T17:52:30Z
mkdir -p "$OUT"
render() { # NAME TRIP [FLAGS...]
    name=$1; trip=$2; shift 2
    "$BIN" render --trip "$TRIPS/$trip.json" --at $AT --routes-only --out "$OUT/$name.png" --display-list "$OUT/$name.json" "$@" >/dev/null
    /usr/bin/python3 "$ROOT/IntegrationTests/cairo/cairo_compare.py" "$OUT/$name.json" "$OUT/$name.png" --diff "$OUT/$name-diff.png" --check
}
render pickup-traffic enroute-to-pickup --style traffic
render stops-scale2-bearing intermediate-stops --style traffic --scale 2 --bearing 60
render dropoff-zoom16 enroute-to-dropoff --zoom 16
render osrm-2k osrm-2k --style traffic --width 640 --height 640
render osrm-20k osrm-20k --style traffic --width 640 --height 640
[ $timing = 1 ] || exit 0
for n in 2k 20k; do
    "$BIN" render --trip "$TRIPS/osrm-$n.json" --at $AT --style traffic --width 640 --height 640 \
        --out "$OUT/scene-$n.png" --display-list "$OUT/scene-$n.json" >/dev/null
done
/usr/bin/python3 "$ROOT/IntegrationTests/cairo/cairo_bench.py" "$OUT/scene-2k.json" "$OUT/scene-20k.json"
