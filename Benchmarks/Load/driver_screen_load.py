#!/usr/bin/env python3
"""Load test of the driver's screen over HTTP (issue 15: at least 60 uncached navigation.png
screens a second).

Starts a release `tripshare serve` on a temporary database, gives a vehicle a route with steps
(the Valhalla Berlin route of ../shared/fixtures when it is there, else a straight 3 km test
route) and drives it a little way, so the screen has a header, a footer and a route to draw.
Then wrk asks, for --duration seconds each:

  1. navigation.png at 390x844 points, scale 2: drawn and encoded every time
     (no If-None-Match, and the server keeps no picture cache);
  2. the same with If-None-Match: answered 304 from the screen's digest, without drawing;
  3. card.png at 240x240: drawn every time.

Prints wrk's requests/s and latency for each, and the server's mean draw + PNG time meanwhile
(tripshare_navigation_render_duration from /metrics). With --basemap the server draws the street
map of data-samples/helsinki.pmtiles under the screen and the vehicle drives the demo's Helsinki
route (its tiles warm after the first request). The figures depend on the machine and
on what else runs on it: say so when quoting them.

    swift build -c release --product tripshare
    python3 Benchmarks/Load/driver_screen_load.py [--duration 10] [--connections 4]
Needs wrk (apt-get install wrk).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import navroutes  # noqa: E402
from server import Server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BERLIN = os.path.join(ROOT, "..", "shared", "fixtures", "valhalla", "route.json")
HELSINKI_ROUTE = os.path.join(ROOT, "data-samples", "helsinki-demo-route.osrm.json")
HELSINKI_TILES = os.path.join(ROOT, "data-samples", "helsinki.pmtiles")
VEHICLE = "/v1/providers/p/vehicles/v1"


def call(base, method, path, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read(), response.headers


def route(binary, work, basemap):
    """A route with steps and its points: Helsinki's under the basemap, else Berlin when the
    shared fixtures are there."""
    if basemap:
        out = os.path.join(work, "helsinki.json")
        subprocess.run([binary, "import", "osrm", HELSINKI_ROUTE, "--out", out], check=True, capture_output=True)
        with open(out) as f:
            body = json.load(f)
        return body, navroutes.decode_polyline(body["encodedPolyline"]), "Helsinki demo route over data-samples/helsinki.pmtiles"
    if os.path.exists(BERLIN):
        out = os.path.join(work, "berlin.json")
        subprocess.run([binary, "import", "valhalla", BERLIN, "--out", out], check=True, capture_output=True)
        with open(out) as f:
            body = json.load(f)
        return body, navroutes.decode_polyline(body["encodedPolyline"]), "Valhalla Berlin route"
    body, points = navroutes.east_route((52.52, 13.40), count=61, spacing=50)
    return body, points, "straight 3 km test route"


def render_seconds(base):
    """The server's total and count of navigation_render_duration (draw + PNG) so far."""
    text = urllib.request.urlopen(base + "/metrics").read().decode()

    def value(suffix):
        match = re.search(rf"^tripshare_navigation_render_duration_seconds_{suffix}(?:{{[^}}]*}})? ([0-9.e+-]+)$", text, re.M)
        return float(match.group(1)) if match else 0.0
    return value("sum"), value("count")


def wrk(args, label, url, headers):
    command = ["wrk", f"-t{min(2, args.connections)}", f"-c{args.connections}", f"-d{args.duration}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run(command + [url], capture_output=True, text=True).stdout
    rps = re.search(r"Requests/sec:\s+([0-9.]+)", out)
    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)$", out, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return (f"{label}: {rps.group(1) if rps else '?'} requests/s, median {latency.get('50', '?')}, p99 {latency.get('99', '?')}"
            + (f", {errors.group(1)} non-2xx/3xx" if errors else ""))


def measured(args, base, label, url, headers):
    """Runs wrk and prints its figures with the server's mean draw + PNG time meanwhile."""
    before = render_seconds(base)
    line = wrk(args, label, url, headers)
    after = render_seconds(base)
    drawn = after[1] - before[1]
    mean = f"; {drawn:.0f} drawn, draw + PNG {1000 * (after[0] - before[0]) / drawn:.1f} ms each" if drawn else ""
    print(line + mean, flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "tripshare"))
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--port", type=int, default=18097)
    parser.add_argument("--basemap", action="store_true", help="draw data-samples/helsinki.pmtiles under the screen")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: apt-get install wrk")
    base = f"http://127.0.0.1:{args.port}"
    work = tempfile.mkdtemp(prefix="navigation-load-")
    basemap = ["--basemap", HELSINKI_TILES] if args.basemap else []
    server = Server(args.binary, *basemap, port=args.port, data_dir=work, work=work)
    try:
        token = server.token(role="server", provider="*")
        call(base, "POST", "/v1/providers/p/vehicles?vehicleId=v1", token,
             {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"}})
        body, points, name = route(args.binary, work, args.basemap)
        call(base, "PUT", f"{VEHICLE}/route", token, body)
        # A few fixes along the route, 2 s apart: the navigator is en route, a step ahead.
        start = time.time() - 60
        for k in range(1, 6):
            a, b = points[k - 1], points[k]
            fix = {"location": {"latitude": (a[0] + b[0]) / 2, "longitude": (a[1] + b[1]) / 2}, "speed": 8, "latlngAccuracy": 5,
                   "updateTime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(start + 2 * k))}
            call(base, "PUT", f"{VEHICLE}?updateMask=lastLocation", token, {"lastLocation": fix})
        screen = f"{base}{VEHICLE}/navigation.png?width=390&height=844&scale=2&lighting=normal"
        png, headers = call(base, "GET", screen.removeprefix(base), token)
        etag = headers["ETag"]
        card, _ = call(base, "GET", f"{VEHICLE}/navInfo/card.png", token)
        print(f"{name}: navigation.png {len(png)} bytes (ETag {etag}), card.png {len(card)} bytes; "
              f"{args.connections} connections, {args.duration} s each", flush=True)
        auth = {"Authorization": f"Bearer {token}"}
        measured(args, base, "navigation.png 390x844@2, drawn every time", screen, auth)
        # The screen shows the arrival time, so its ETag changes when the minute does: take
        # the current one just before the phase (a minute passing during it still redraws).
        etag = call(base, "GET", screen.removeprefix(base), token)[1]["ETag"]
        measured(args, base, "navigation.png, If-None-Match (304)", screen, dict(auth, **{"If-None-Match": etag}))
        measured(args, base, "card.png 240x240, drawn every time", f"{base}{VEHICLE}/navInfo/card.png", auth)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
