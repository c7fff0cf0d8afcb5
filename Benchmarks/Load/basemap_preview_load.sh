#!/bin/sh
# Load test of preview.png over the basemap (issue 14: at least 100 uncached renders/s on a
# 2-core machine, server RSS under 250 MB): a release `tripshare serve --basemap
# data-samples/helsinki.pmtiles`, a trip on the demo's route in central Helsinki, and wrk on
# loopback asking for the preview without If-None-Match (so every request is drawn; the rider
# token's rate limit is off, else most answers would be 429s), first at
# one fixed view, then with the vehicle moving between runs (new ETags, the same tiles). The
# server's resident memory is sampled during the runs (peak and last, from /proc).
#
# Usage: Benchmarks/Load/basemap_preview_load.sh [SECONDS] [CONNECTIONS]
# Needs: swift build -c release --product tripshare; wrk (apt-get install wrk); curl.
set -eu
SECONDS_RUN=${1:-10}
CONNECTIONS=${2:-8}
. "$(dirname "$0")/release_server.sh"
start_server 18091 --rate-limit 0 --basemap "$ROOT/data-samples/helsinki.pmtiles"
api POST "/v1/providers/p/vehicles?vehicleId=v1" '{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"},"lastLocation":{"location":{"latitude":60.1659,"longitude":24.9402}}}'
api POST "/v1/providers/p/trips?tripId=t1" '{"tripType":"EXCLUSIVE","vehicleId":"v1","pickupPoint":{"point":{"latitude":60.1703144,"longitude":24.9415392}},"dropoffPoint":{"point":{"latitude":60.1690883,"longitude":24.9510384}}}'
api PUT "/v1/providers/p/trips/t1?updateMask=tripStatus" '{"tripStatus":"ENROUTE_TO_PICKUP"}'
api PUT "/v1/providers/p/vehicles/v1/route" "$("$BIN" import osrm "$ROOT/data-samples/helsinki-demo-route.osrm.json")"
PREVIEW="$BASE/v1/providers/p/trips/t1/preview.png"
echo "preview: $(curl -sf -H "Authorization: Bearer $RIDER_TOKEN" "$PREVIEW" | wc -c) bytes, 640x480, basemap on"

peak=0
sample() { # the server's resident memory in MB, now and at its peak so far (VmHWM)
    awk '/^VmRSS/ {rss=$2} /^VmHWM/ {hwm=$2} END {printf "%d %d", rss/1024, hwm/1024}' "/proc/$SERVER/status"
}
run() {
    echo "== $1"; shift
    wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency "$@" | sed -n '/Requests\/sec\|Latency \|50%\|99%\|Non-2xx/p'
    echo "   server RSS now/peak: $(sample | sed 's/ / MB \/ /') MB"
}
run "preview.png over the basemap, drawn every time" -H "Authorization: Bearer $RIDER_TOKEN" "$PREVIEW"
run "preview.png?basemap=off, drawn every time" -H "Authorization: Bearer $RIDER_TOKEN" "$PREVIEW?basemap=off"
for step in 1 2 3; do
    lat=$(echo "60.1659 + $step * 0.0009" | bc -l); lng=$(echo "24.9402 + $step * 0.0001" | bc -l)
    api PUT "/v1/providers/p/vehicles/v1?updateMask=lastLocation" "{\"lastLocation\":{\"location\":{\"latitude\":$lat,\"longitude\":$lng}}}"
    run "preview.png over the basemap, vehicle moved ($step)" -H "Authorization: Bearer $RIDER_TOKEN" "$PREVIEW?scale=2&width=320&height=240"
done
echo "server RSS at the end (now/peak): $(sample | sed 's/ / MB \/ /') MB"
