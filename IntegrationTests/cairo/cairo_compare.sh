#!/bin/sh
# Compares our fills and lines with Cairo drawing the same geometry, picture by picture with
# cairo_compare.py --check (DESIGN §7, issue 14: MAD <= 0.05/255 per channel, < 0.02% of pixels
# off by more than 64), then times Cairo on the same scenes for the speed ratios against
# Benchmarks/. Which pictures is the argument:
#   previews  the route lines of five trip previews (Tests/RenderTests/Fixtures/trips); timed:
#             Cairo on the full preview scenes of Benchmarks/RenderBenchmarks.
#   basemap   the basemap's fills and lines in four views of ../shared/fixtures/basemap, as drawn
#             (each tile's geometry clipped to its square, every layer one polygon set); Cairo
#             fills the same polygons and strokes the same centre lines (all tiles' lines of a
#             layer as one path); labels and the attribution are left out. Each view is also
#             compared with a near-exact picture (Cairo at 16x, box-filtered; cairo_exact.py): on
#             the densest view (SF z15, thousands of low-contrast building edges) Cairo's own
#             approximation is more than 0.05 from it, and the check then asks that ours be
#             within 0.05 of the exact picture and nearer to it than Cairo. Timed: Cairo on the
#             San Francisco z15 view, against Benchmarks/BasemapBenchmarks ("SF z15 640x480 ...").
# Every picture is compared; the script fails if any one does.
# Usage: [TRIPSHARE=BINARY] IntegrationTests/cairo/cairo_compare.sh [--no-timing] previews|basemap [OUT_DIR]
# (--no-timing only compares, as IntegrationTests/run does; needs a built tripshare, by default
# the debug build or else the release one, and Debian's python3-cairo and python3-numpy)
set -eu
timing=1
if [ "${1:-}" = "--no-timing" ]; then timing=0; shift; fi
pictures=${1:-}
case "$pictures" in
    previews | basemap) ;;
    *) echo "usage: $0 [--no-timing] previews|basemap [OUT_DIR]" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${2:-/tmp/cairo-$pictures}
if [ -n "${TRIPSHARE:-}" ]; then
    BIN=$TRIPSHARE
else
    BIN="$ROOT/.build/debug/tripshare"
    [ -x "$BIN" ] || BIN="$ROOT/.build/release/tripshare"
fi
[ -x "$BIN" ] || { echo "build first: swift build --product tripshare" >&2; exit 2; }
mkdir -p "$OUT"
status=0
compare() { # NAME [cairo_compare.py FLAGS...]
    name=$1; shift
    /usr/bin/python3 "$ROOT/IntegrationTests/cairo/cairo_compare.py" "$OUT/$name.json" "$OUT/$name.png" \
        --diff "$OUT/$name-diff.png" --check "$@" || status=1
}

if [ "$pictures" = previews ]; then
    TRIPS="$ROOT/Tests/RenderTests/Fixtures/trips"
    AT=2025-02-05T17:52:30Z
    preview() { # NAME TRIP [render FLAGS...]
        name=$1; trip=$2; shift 2
        "$BIN" render --trip "$TRIPS/$trip.json" --at $AT --routes-only --out "$OUT/$name.png" --display-list "$OUT/$name.json" "$@" >/dev/null
        compare "$name"
    }
    preview pickup-traffic enroute-to-pickup --style traffic
    preview stops-scale2-bearing intermediate-stops --style traffic --scale 2 --bearing 60
    preview dropoff-zoom16 enroute-to-dropoff --zoom 16
    preview osrm-2k osrm-2k --style traffic --width 640 --height 640
    preview osrm-20k osrm-20k --style traffic --width 640 --height 640
    if [ $timing = 1 ]; then
        for n in 2k 20k; do
            "$BIN" render --trip "$TRIPS/osrm-$n.json" --at $AT --style traffic --width 640 --height 640 \
                --out "$OUT/scene-$n.png" --display-list "$OUT/scene-$n.json" >/dev/null
        done
        /usr/bin/python3 "$ROOT/IntegrationTests/cairo/cairo_bench.py" "$OUT/scene-2k.json" "$OUT/scene-20k.json"
    fi
else
    "$BIN" gallery basemap --out "$OUT" --fixtures "$ROOT/../shared/fixtures/basemap" \
        --streets-style "$ROOT/Tests/BasemapTests/Fixtures/mapbox-streets-v7.json" >/dev/null
    for json in "$OUT"/*.json; do
        name=$(basename "$json" .json)
        compare "$name" --cairo-out "$OUT/$name-cairo.png" --exact 16 --exact-out "$OUT/$name-exact.png"
    done
    [ $timing = 0 ] || /usr/bin/python3 "$ROOT/IntegrationTests/cairo/cairo_bench.py" "$OUT/sf-z15.json"
fi
exit $status
