#!/usr/bin/env python3
"""Load test of the server-side navigator with Server-Sent Events subscribers (issue 4).

Starts `tripshare serve` on a temporary database, creates --vehicles vehicles, each with one
EXCLUSIVE trip and a 3 km route with steps (so every update runs a routed navigator), then
measures vehicle location updates with wrk (Benchmarks/Load/navigator_updates.lua):

  phase 1: no SSE subscribers;
  phase 2: --subscribers SSE clients (Benchmarks/Load/sse_clients.py), one per trip with the rider's
           consumer token (trips beyond the vehicle count get a second subscriber).

For each phase it reports wrk's requests/s and latency, the navigator's mean cost per
routed update (tripshare_navigator_update_seconds from /metrics) and, in phase 2, the events
the subscribers received. The routes are set again before phase 2, so both phases drive the
same stretch. Run from the repository root after `swift build -c release`:

    python3 Benchmarks/Load/navigator_load.py [--binary .build/release/tripshare] [--duration 20]
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import navroutes  # noqa: E402
from server import Server  # noqa: E402
import tokens  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECRET = "nav-load-test-secret-of-at-least-32-bytes"
PROVIDER = "load"


def rider_token(trip):
    """A rider's token, minted here: a subscriber each, a thousand by default, and `tripshare
    token` takes a tenth of a second a call (scripts/lib/tokens.py)."""
    return tokens.for_role(SECRET, "nav_load", "consumer", PROVIDER, tripid=trip)


def call(base, method, path, auth, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Authorization": "Bearer " + auth, "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return response.read()


def metrics(base):
    text = urllib.request.urlopen(base + "/metrics").read().decode()
    def value(name):
        match = re.search(rf"^{name}(?:{{[^}}]*}})? ([0-9.e+-]+)$", text, re.M)
        return float(match.group(1)) if match else 0.0
    return value("tripshare_navigator_update_seconds_sum"), value("tripshare_navigator_update_seconds_count")


def origin(i):
    return 52.30 + (i // 40) * 0.01, 13.10 + (i % 40) * 0.05


def set_routes(base, admin, vehicles):
    def one(i):
        route, _ = navroutes.east_route(origin(i), count=61, spacing=50)
        call(base, "PUT", f"/v1/providers/{PROVIDER}/vehicles/v{i}/route", admin, route)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(one, range(vehicles)))


def run_wrk(args, base, config_path, time_base):
    env = dict(os.environ, NAV_LOAD_CONFIG=config_path, NAV_LOAD_THREADS=str(args.threads))
    with open(config_path) as f:
        config = f.read()
    with open(config_path, "w") as f:
        f.write(re.sub(r"timeBase = \d+", f"timeBase = {time_base}", config))
    before = metrics(base)
    result = subprocess.run(["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{args.duration}s", "--latency",
                             "-s", os.path.join(ROOT, "Benchmarks", "Load", "navigator_updates.lua"), base],
                            env=env, capture_output=True, text=True)
    after = metrics(base)
    out = result.stdout
    rps = float(re.search(r"Requests/sec:\s+([0-9.]+)", out).group(1))
    latency = dict(re.findall(r"^\s+(50|90|99)%\s+(\S+)$", out, re.M))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    updates = after[1] - before[1]
    nav_us = (after[0] - before[0]) / updates * 1e6 if updates else 0
    return {"requests_per_second": rps, "latency": latency, "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "navigator_updates": int(updates), "navigator_mean_us": round(nav_us, 1), "stderr": result.stderr.strip()[:500]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "tripshare"))
    parser.add_argument("--vehicles", type=int, default=1000)
    parser.add_argument("--subscribers", type=int, default=1000)
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--port", type=int, default=18099)
    parser.add_argument("--no-routes", action="store_true", help="baseline: vehicles without routes (no navigator), no SSE phase")
    parser.add_argument("--perf", help="record a CPU profile of the server during phase 1 into this perf.data file")
    args = parser.parse_args()
    base = f"http://127.0.0.1:{args.port}"
    work = tempfile.mkdtemp(prefix="nav-load-")
    server = Server(args.binary, port=args.port, data_dir=work, work=work, env={"TRIPSHARE_JWT_SECRET": SECRET})
    sse = None
    try:
        admin = server.token(role="server", provider=PROVIDER)
        vehicle = {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
                   "vehicleType": {"category": "AUTO"}}

        def create(i):
            call(base, "POST", f"/v1/providers/{PROVIDER}/vehicles?vehicleId=v{i}", admin, vehicle)
            route, points = navroutes.east_route(origin(i), count=61, spacing=50)
            call(base, "POST", f"/v1/providers/{PROVIDER}/trips?tripId=t{i}", admin,
                 {"tripType": "EXCLUSIVE", "vehicleId": f"v{i}",
                  "pickupPoint": {"point": {"latitude": points[-1][0], "longitude": points[-1][1]}}})
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(create, range(args.vehicles)))
        if not args.no_routes:
            set_routes(base, admin, args.vehicles)
        print(f"set up {args.vehicles} vehicles with trips and routes in {time.monotonic() - started:.1f} s", flush=True)

        d_lng = 10 / navroutes.METRES_PER_DEGREE
        lines = [f'    {{id = "v{i}", lat = {origin(i)[0]:.7f}, lng = {origin(i)[1]:.7f}, '
                 f'dlng = {d_lng / __import__("math").cos(__import__("math").radians(origin(i)[0])):.10f}}},'
                 for i in range(args.vehicles)]
        config_path = os.path.join(work, "config.lua")
        with open(config_path, "w") as f:
            f.write(f'return {{\n  token = "{admin}",\n  provider = "{PROVIDER}",\n  timeBase = 0,\n'
                    f'  vehicles = {{\n' + "\n".join(lines) + "\n  }\n}\n")

        time_base = 1_750_000_000
        perf = None
        if args.perf:
            perf = subprocess.Popen(["perf", "record", "-F", "499", "-g", "-o", args.perf, "-p", str(server.pid), "--",
                                     "sleep", str(args.duration)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        phase1 = run_wrk(args, base, config_path, time_base)
        if perf:
            perf.wait()
        print("phase 1 (no SSE):", json.dumps(phase1), flush=True)
        if args.no_routes:
            return

        set_routes(base, admin, args.vehicles)
        streams = [{"path": f"/v1/providers/{PROVIDER}/trips/t{i % args.vehicles}/events",
                    "token": rider_token(f"t{i % args.vehicles}")} for i in range(args.subscribers)]
        streams_path = os.path.join(work, "streams.json")
        json.dump(streams, open(streams_path, "w"))
        sse = subprocess.Popen([sys.executable, os.path.join(ROOT, "Benchmarks", "Load", "sse_clients.py"), "--port", str(args.port),
                                "--streams", streams_path], stdout=subprocess.PIPE, text=True)
        connected = sse.stdout.readline().strip()
        print(f"SSE: {connected}", flush=True)
        phase2 = run_wrk(args, base, config_path, time_base + 1_000_000)
        sse.send_signal(signal.SIGTERM)
        received = json.loads(sse.stdout.readline())
        sse.wait(timeout=30)
        sse = None
        phase2["sse"] = received
        print("phase 2 (with SSE):", json.dumps(phase2), flush=True)
    finally:
        if sse:
            sse.kill()
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
