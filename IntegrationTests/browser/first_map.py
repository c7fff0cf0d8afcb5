#!/usr/bin/env python3
"""Times the share page's first map (DESIGN §15: within 1 s of navigation) on one or more
tripshare binaries, alternating them, each run on a fresh `tripshare demo` (cold tile caches,
a new data folder) in headless Chromium at 1280x800.

The first map is Leaflet's first `load` of the trip's tile layer (every tile of the first view
in), marked by the page as `tripshare-map-shown`; each run prints it and where the time went
(the document, the scripts, the tiles' first request and last answer), then the medians per
binary and their ratio to the first binary's.

Needs Debian's chromium, python3-websocket and libjs-leaflet. Run it on a quiet machine (inside /work/bin/slot
where builds share the machine), a few runs a binary:
Usage: IntegrationTests/browser/first_map.py [--runs N] BINARY [BINARY...]
"""
import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402  (the DevTools client and the page's timeline)


def first_map(binary):
    """One cold first map of `binary`'s demo: the timeline (milliseconds from navigation)."""
    work = tempfile.mkdtemp(prefix="tripshare-first-map-")
    processes = []
    try:
        _, share = bt.start_demo(binary, work, processes)
        browser = bt.start_chromium(work, processes, "--disable-gpu", "--lang=en-US")
        bt.open_share(browser, share, bt.DESKTOP, "light")
        browser.pump(0.5)
        timeline = json.loads(browser.evaluate(bt.FIRST_MAP_TIMELINE) or "{}")
        browser.ws.close()
        return timeline
    finally:
        bt.stop(processes)
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3, help="runs per binary, alternating")
    parser.add_argument("binaries", nargs="+")
    args = parser.parse_args()
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        sys.exit("chromium is not installed: scripts/setup-debian chromium python3-websocket libjs-leaflet")
    with open("/proc/loadavg") as f:
        print("load before:", f.read().split()[:3])
    shown = {binary: [] for binary in args.binaries}
    for run in range(args.runs):
        for binary in args.binaries:
            started = time.time()
            try:
                timeline = first_map(binary)
            except AssertionError as error:
                # The page never showed its map (the server's page broken, or not served).
                sys.exit(f"FAIL run {run + 1} {binary}: {error}")
            tiles = timeline.get("groups", {}).get("tiles", {})
            shown[binary].append(timeline.get("shown", 0))
            print(f"run {run + 1} {binary}: first map at {timeline.get('shown', 0):.0f} ms; document {timeline.get('document', 0):.0f}, "
                  f"parsed {timeline.get('parsed', 0):.0f}, scripts by {timeline.get('groups', {}).get('scripts', {}).get('end', 0):.0f}, "
                  f"{tiles.get('count', 0)} tiles {tiles.get('start', 0):.0f}-{tiles.get('end', 0):.0f} "
                  f"(longest {tiles.get('longest', 0):.0f}); {time.time() - started:.0f} s in all", flush=True)
    with open("/proc/loadavg") as f:
        print("load after:", f.read().split()[:3])
    reference = statistics.median(shown[args.binaries[0]])
    for binary in args.binaries:
        median = statistics.median(shown[binary])
        print(f"{binary}: median first map {median:.0f} ms over {len(shown[binary])} runs; "
              f"{median / reference:.2f}x the first binary's")


if __name__ == "__main__":
    main()
