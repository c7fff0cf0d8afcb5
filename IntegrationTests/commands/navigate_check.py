#!/usr/bin/env python3
"""Runs `tripshare navigate` the way a user would and checks its output (issue 4's checks).

1. The whole Portugal–Korea route (imported with `tripshare import osrm`) driven with
   --drive: steps become current in order (every step long enough to be seen at the
   sampling interval), exactly one didArriveAtWaypoint, the remaining distance never grows
   while en route, no rerouting, and consecutive remaining time/distance events move by at
   least their thresholds.
2. A trace that leaves a route for 200 m, with --reroute: the navigator goes
   enroute → rerouting → (new route) → enroute, and arrives at the new route's end.

Run from the repository root after `swift build` (or -c release):
    python3 IntegrationTests/commands/navigate_check.py [path/to/tripshare]
Exits non-zero on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import navroutes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "..", "shared", "fixtures")
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def run(binary, *args):
    result = subprocess.run([binary, *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{binary} {' '.join(args)} failed:\n{result.stderr}")
    return result


def events(path):
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            assert list(record) == ["event", "time", "data"], record.keys()
            yield record


def whole_drive(binary, work):
    route_path = os.path.join(work, "p2k.json")
    run(binary, "import", "osrm", os.path.join(FIXTURES, "osrm", "portugal_to_korea.json"), "--out", route_path)
    with open(route_path) as f:
        route = json.load(f)
    interval = 4.0
    out = os.path.join(work, "p2k-events.jsonl")
    run(binary, "navigate", "--route", route_path, "--drive", "--interval", str(interval),
        "--start", "2025-06-01T06:00:00Z", "--out", out)
    seen, arrivals, grew, rerouting = [], 0, 0, False
    last_remaining = float("inf")
    last_distance = last_time = None
    thin_distance = thin_time = 0
    for record in events(out):
        name, data = record["event"], record["data"]
        if name == "didArriveAtWaypoint":
            arrivals += 1
        elif name == "didUpdateNavInfo":
            rerouting |= data["navState"] == "rerouting"
            step = data.get("currentStep", {}).get("stepNumber")
            if step is not None and (not seen or seen[-1] != step):
                seen.append(step)
            if data["navState"] == "enroute":
                grew += data["distanceToFinalDestinationMeters"] > last_remaining
                last_remaining = data["distanceToFinalDestinationMeters"]
        elif name == "didUpdateRemainingDistance":
            value = data["distanceToNextDestinationMeters"]
            thin_distance += last_distance is not None and abs(value - last_distance) < 1
            last_distance = value
        elif name == "didUpdateRemainingTime":
            value = data["timeToNextDestinationSeconds"]
            thin_time += last_time is not None and abs(value - last_time) < 1
            last_time = value
    steps = route["steps"]
    check(len(steps) == 422, f"the imported route has 422 steps ({len(steps)})")
    check(seen == sorted(seen) and len(set(seen)) == len(seen), f"steps became current in order ({len(seen)} of them)")
    # Step 0 (depart) is current only in the NavInfo of the route change, before the first update.
    check(seen[:2] == [0, 1] and seen[-1:] == [421], f"from step 0 to step 421 ({seen[:2]}..{seen[-1:]})")
    missed = [s["stepNumber"] for s in steps[1:] if s["stepNumber"] not in seen and s["timeFromPrevStepSeconds"] > 2 * interval]
    check(not missed, f"no step longer than two intervals was skipped ({missed[:10]})")
    check(arrivals == 1, f"one didArriveAtWaypoint ({arrivals})")
    check(grew == 0, f"remaining distance never grew en route ({grew} times)")
    check(not rerouting, "no rerouting on the route itself")
    check(thin_distance == 0 and thin_time == 0,
          f"remaining distance/time events moved by at least 1 m / 1 s ({thin_distance}, {thin_time} did not)")


def excursion(binary, work):
    route, points = navroutes.east_route((52.52, 13.40), count=61, spacing=50)
    trace = []
    t = 1_750_000_000
    for metres in range(0, 1001, 10):  # 1 km along the route at 10 m/s
        lat, lng = navroutes.along(points, metres)
        trace.append({"time": t, "latitude": lat, "longitude": lng, "heading": 90, "speed": 10, "accuracy": 5})
        t += 1
    base = (trace[-1]["latitude"], trace[-1]["longitude"])
    for metres in list(range(20, 201, 20)) + [200] * 5:  # 200 m north at 20 m/s, then stay
        lat, lng = navroutes.north(base, metres)
        trace.append({"time": t, "latitude": lat, "longitude": lng, "heading": 0, "speed": 20 if metres < 200 else 0, "accuracy": 5})
        t += 1
    # The new route starts where the vehicle left the old one and follows it north, as a
    # router asked from the vehicle's position would.
    north_leg = [navroutes.on_grid(*navroutes.north(base, m)) for m in range(0, 200, 20)]
    detour_points = north_leg + navroutes.east_points(navroutes.north(base, 200), 41, 50)
    detour = navroutes.route_through(detour_points)
    for metres in range(210, 2201, 10):
        lat, lng = navroutes.along(detour_points, metres)
        trace.append({"time": t, "latitude": lat, "longitude": lng, "heading": 90, "speed": 10, "accuracy": 5})
        t += 1
    paths = {name: os.path.join(work, name) for name in ("a.json", "b.json", "trace.jsonl", "events.jsonl")}
    json.dump(route, open(paths["a.json"], "w"))
    json.dump(detour, open(paths["b.json"], "w"))
    with open(paths["trace.jsonl"], "w") as f:
        for point in trace:
            f.write(json.dumps(point) + "\n")
    run(binary, "navigate", "--route", paths["a.json"], "--trace", paths["trace.jsonl"], "--reroute", paths["b.json"],
        "--out", paths["events.jsonl"])
    states, arrivals, route_changes = [], 0, 0
    for record in events(paths["events.jsonl"]):
        if record["event"] == "didUpdateNavInfo" and (not states or states[-1] != record["data"]["navState"]):
            states.append(record["data"]["navState"])
        arrivals += record["event"] == "didArriveAtWaypoint"
        route_changes += record["event"] == "navigatorDidChangeRoute"
    check(states == ["enroute", "rerouting", "enroute", "stopped"], f"200 m off the route: {' -> '.join(states)}")
    check(route_changes == 2 and arrivals == 1, f"the new route was taken and driven to its end ({route_changes} routes, {arrivals} arrival)")


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "tripshare")
    with tempfile.TemporaryDirectory() as work:
        whole_drive(binary, work)
        excursion(binary, work)
    if failures:
        sys.exit(f"{len(failures)} check(s) failed")
    print("all checks passed")


if __name__ == "__main__":
    main()
