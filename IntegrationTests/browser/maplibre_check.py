#!/usr/bin/env python3
"""Loads the server's MapLibre styles in MapLibre GL JS itself, in headless Chromium, and checks
that MapLibre accepts and draws them (DESIGN §15: MapLibre clients show the same map).

MapLibre GL JS comes from the PyPI package `maplibre` (its bundled maplibre-gl.js; no npm
here): the script downloads that wheel once with pip into --cache and reads the file from it.
It starts `tripshare serve` with the demo's basemap on a free port, opens a page that makes a
MapLibre map of /styles/{style}/style.json (MapLibre validates a style before it loads it and
reports every problem as an error event), waits until the map is idle, and fails on any error
event, any request MapLibre could not use (tiles, TileJSON, glyphs), or a map drawn blank. For
comparison it saves MapLibre's picture beside a Leaflet map of our PNG tiles of the same place
(MapLibre's zoom is one less than Leaflet's for the same ground).

Chromium draws WebGL in software here (SwiftShader). Needs Debian's chromium,
python3-websocket and libjs-leaflet (the Leaflet side), and pip.
Usage: IntegrationTests/browser/maplibre_check.py [--tripshare PATH] [--out DIR] [--cache DIR]
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_test import ROOT, Server, start_chromium, stop  # noqa: E402  (the DevTools client, the one server launcher)

CENTER = (60.1699, 24.9410)
PAGE = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="maplibre-gl.css"><script src="maplibre-gl.js"></script>
<style>html,body,#map{margin:0;width:100%;height:100%}</style></head><body><div id="map"></div><script>
window.problems = []; window.done = false;
const map = new maplibregl.Map({container: "map", style: STYLE, center: [LNG, LAT], zoom: ZOOM, attributionControl: {compact: false},
  canvasContextAttributes: {preserveDrawingBuffer: true}});
map.on("error", (event) => window.problems.push(String(event.error && event.error.message || event.error || event)));
map.on("idle", () => { window.done = true; });
window.blank = () => {
  const canvas = map.getCanvas(), gl = canvas.getContext("webgl2") || canvas.getContext("webgl");
  const pixels = new Uint8Array(4 * 64 * 64);
  gl.readPixels(canvas.width / 2 - 32, canvas.height / 2 - 32, 64, 64, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
  const seen = new Set();
  for (let i = 0; i < pixels.length; i += 4) seen.add(pixels[i] << 16 | pixels[i + 1] << 8 | pixels[i + 2]);
  return seen.size;
};
</script></body></html>"""
LEAFLET = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="BASE/assets/leaflet/leaflet.css">
<script src="BASE/assets/leaflet/leaflet.js"></script><style>html,body,#map{margin:0;width:100%;height:100%}</style></head>
<body><div id="map"></div><script>window.done = false;
const map = L.map("map", {zoomControl: false}).setView([LAT, LNG], ZOOM);
L.tileLayer("BASE/tiles/STYLE/{z}/{x}/{y}.png", {attribution: "© OpenStreetMap contributors"}).on("load", () => { window.done = true; }).addTo(map);
</script></body></html>"""


def maplibre_files(cache):
    """maplibre-gl.js and .css from the `maplibre` wheel on PyPI, downloaded once."""
    os.makedirs(cache, exist_ok=True)
    wheels = glob.glob(os.path.join(cache, "maplibre-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "maplibre==0.3.6", "--no-deps", "-q", "-d", cache], check=True)
        wheels = glob.glob(os.path.join(cache, "maplibre-*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        return {name: wheel.read(f"maplibre/srcjs/{name}") for name in ("maplibre-gl.js", "maplibre-gl.css")}


def wait(browser, expression, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if browser.evaluate(expression):
            return True
        browser.pump(0.3)
    return False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tripshare", default=os.path.join(ROOT, ".build", "debug", "tripshare"))
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "maplibre"))
    parser.add_argument("--cache", default=os.path.expanduser("~/.cache/tripshare/maplibre"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="tripshare-maplibre-")
    processes, failures = [], []
    try:
        for name, data in maplibre_files(args.cache).items():
            with open(os.path.join(work, name), "wb") as handle:
                handle.write(data)
        server = Server(args.tripshare, "--basemap", os.path.join(ROOT, "data-samples", "helsinki.pmtiles"), work=work, cwd=ROOT)
        processes.append(server)
        base = server.url
        browser = start_chromium(work, processes, "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist",
                                 "--allow-file-access-from-files")
        viewport = {"width": 800, "height": 600, "deviceScaleFactor": 1, "mobile": False}
        for style, zoom in (("openmaptiles-day", 15), ("openmaptiles-night", 16)):
            page = os.path.join(work, f"{style}.html")
            with open(page, "w") as handle:
                handle.write(PAGE.replace("STYLE", json.dumps(f"{base}/styles/{style}/style.json"))
                             .replace("LNG", str(CENTER[1])).replace("LAT", str(CENTER[0])).replace("ZOOM", str(zoom - 1)))
            browser.open(f"file://{page}", viewport)
            if not wait(browser, "window.done === true", 120):
                failures.append(f"{style}: MapLibre never became idle; problems {browser.evaluate('window.problems')}")
                continue
            problems = browser.evaluate("window.problems") or []
            colours = browser.evaluate("window.blank()")
            shot = os.path.join(args.out, f"maplibre-{style}.png")
            browser.screenshot(shot)
            leaflet = os.path.join(work, f"leaflet-{style}.html")
            with open(leaflet, "w") as handle:
                handle.write(LEAFLET.replace("BASE", base).replace("STYLE", style).replace("LNG", str(CENTER[1]))
                             .replace("LAT", str(CENTER[0])).replace("ZOOM", str(zoom)))
            browser.open(f"file://{leaflet}", viewport)
            wait(browser, "window.done === true", 60)
            browser.pump(0.5)
            ours = os.path.join(args.out, f"leaflet-{style}.png")
            browser.screenshot(ours)
            print(f"{style}: MapLibre {len(problems)} problems, {colours} colours in the middle; screenshots {shot}, {ours}")
            failures += [f"{style}: MapLibre: {p}" for p in problems]
            if not colours or colours < 3:
                failures.append(f"{style}: MapLibre drew a blank map ({colours} colours)")
        failures += [f"console: {e}" for e in browser.console_errors]
    except (AssertionError, RuntimeError) as error:
        failures.append(str(error))
    finally:
        stop(processes)
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL", failure)
    print("maplibre check:", "FAILED" if failures else "passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
