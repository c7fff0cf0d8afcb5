#!/bin/sh
# Load test of GET .../preview.png (uncached renders), its 304 answers and GET trip, with wrk
# on loopback against a release `tripshare serve` (DESIGN §7 speed targets).
#
# Usage: Benchmarks/Load/preview_load.sh [SECONDS] [CONNECTIONS]
# Needs: swift build -c release --product tripshare; wrk (apt-get install wrk); curl.
# The trip is the second trip of shared/fixtures/fleet-engine-logs/two-trips-bay-area.json at
# 17:52:30Z: the vehicle on the route the driver was given, 2 minutes from the pickup.
set -eu
SECONDS_RUN=${1:-10}
CONNECTIONS=${2:-8}
. "$(dirname "$0")/release_server.sh"
start_server 18089
api POST "/v1/providers/p/vehicles?vehicleId=v1" '{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}'
api POST "/v1/providers/p/trips?tripId=t1" '{"tripType":"EXCLUSIVE","vehicleId":"v1","pickupPoint":{"point":{"latitude":37.40465747488186,"longitude":-122.02984202653171}},"dropoffPoint":{"point":{"latitude":37.42417038875794,"longitude":-122.09279280155899}}}'
api PUT "/v1/providers/p/trips/t1?updateMask=tripStatus" '{"tripStatus":"ENROUTE_TO_PICKUP"}'
api PUT "/v1/providers/p/vehicles/v1?updateMask=lastLocation,currentRouteSegment" '{"lastLocation":{"location":{"latitude":37.407487994752316,"longitude":-122.02342852950096},"heading":346},"currentRouteSegment":"ycicFluwgV[FjAnIBFn@pAPn@@f@Mj@Yb@M`AF`Bd@bAh@XxCr@^f@FZMhCd@`AfE`A"}'
PREVIEW="$BASE/v1/providers/p/trips/t1/preview.png?style=traffic"
ETAG=$(curl -sf -D - -o /dev/null -H "Authorization: Bearer $RIDER_TOKEN" "$PREVIEW" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')
echo "preview ETag $ETAG, $(curl -sf -H "Authorization: Bearer $RIDER_TOKEN" "$PREVIEW" | wc -c) bytes"
run() { echo "== $1"; shift; wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency "$@" | sed -n '/Requests\/sec\|Latency \|50%\|99%\|Non-2xx/p'; }
run "preview.png, rendered every time" -H "Authorization: Bearer $RIDER_TOKEN" "$PREVIEW"
run "preview.png, If-None-Match (304)" -H "Authorization: Bearer $RIDER_TOKEN" -H "If-None-Match: $ETAG" "$PREVIEW"
run "GET trip (JOURNEY_SHARING_V1S)" -H "Authorization: Bearer $RIDER_TOKEN" "$BASE/v1/providers/p/trips/t1"
