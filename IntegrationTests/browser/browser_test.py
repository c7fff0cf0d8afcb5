#!/usr/bin/env python3
"""Opens the rider's share page and the driver's page of `tripshare demo` in headless Chromium
and checks them.

Starts the demo on a free port with a temporary data folder (DevTools protocol over a
websocket). The share page, a live Leaflet map of the server's own tiles: on the desktop
(1280x800) a drag and a wheel zoom move the map and fetch new tiles, and Re-center brings the
camera back; the time from navigation to the first map is printed (and checked against
--first-map-limit). A reroute that keeps the car on its old path (a detour 200 m beyond the car) switches the page's
tiles to map.json's new key. The demo keeps events for a few seconds only (--event-retention): the page
is then taken offline for longer than that, and must hear on reconnecting that the events it
missed are gone (eventsExpired) and read the trip again. A link whose token expires while it
is open ends in its expired state.
The driver's link, on a phone held upright (390x844) and sideways (844x390) at pixel ratio 2:
the screen is drawn at the window's size and pixel ratio, shows the current step (the one the
API's navInfo has) and follows the car as it moves; a settings change made through the API
(the header's colour) shows without a reload; the directions list opens from the header; and,
upright, a drag pans the map to a free camera whose recenter button returns to following,
while with scrollGestures off a drag does nothing.
Then a second demo's whole drive on the share page, sampled at 10 Hz while the viewport
(390x844 at pixel ratio 2, 1280x800) and the lighting (day, night) change every 5 s: the car
and the next stop stay 24 px inside the map the sheet leaves visible while the camera
follows, the attribution whole inside the page; between two fixes the drawn car stays within
3 px of its route and never moves backwards along it; the states come in order and each gets
a screenshot (en route, at pickup, to dropoff, arrived, complete); no animation frames once
the trip has ended. No console errors anywhere.
Every share page screenshot waits (at most --settle-limit seconds) for the map a rider sees to
be whole, read from Leaflet's DOM: no tile of the current zoom in view still loading and a
loaded tile under every point of the drawn trip; the car and the next stop's pin and the ETA
badge inside the visible map; the drawn route reaching the drawn car. A map not whole by then
fails (a screenshot taken mid-flight once showed one tile and a piece of the route).

Needs Debian's chromium, python3-websocket and libjs-leaflet (scripts/setup-debian chromium python3-websocket libjs-leaflet).
Usage: IntegrationTests/browser/browser_test.py [--tripshare PATH] [--out DIR] [--drive-speed F] [--first-map-limit MS] [--settle-limit S]
"""
import argparse
import base64
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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
import navroutes  # noqa: E402  (polylines)
from server import Server  # noqa: E402  (the one launcher of the system tests)

try:
    import websocket  # Debian's python3-websocket
except ImportError:  # a Python other than Debian's (pyenv, venv): use Debian's package
    sys.path.append("/usr/lib/python3/dist-packages")
    import websocket

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
# How long the demo keeps events: short, so that the page misses deleted ones when offline.
RETENTION_SECONDS = 3
DESKTOP = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}
PHONE_LANDSCAPE = {"width": 844, "height": 390, "deviceScaleFactor": 2, "mobile": True,
                   "screenOrientation": {"angle": 90, "type": "landscapePrimary"}}


class Browser:
    """One page of a headless Chromium, driven over the DevTools protocol."""

    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, timeout=30)
        self.next_id = 0
        self.session = None
        self.console_errors = []

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self.ws.send(json.dumps(message))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.note(reply)

    def note(self, event):
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.console_errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.console_errors.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self.console_errors.append(params["entry"].get("text", "") + " " + params["entry"].get("url", ""))

    def pump(self, seconds):
        """Reads events for `seconds` (console errors arrive as events)."""
        end = time.time() + seconds
        self.ws.settimeout(0.2)
        try:
            while time.time() < end:
                try:
                    self.note(json.loads(self.ws.recv()))
                except websocket.WebSocketTimeoutException:
                    pass
        finally:
            self.ws.settimeout(30)

    def open(self, url, viewport):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            self.send(domain)
        self.send("Emulation.setDeviceMetricsOverride", viewport)
        self.send("Page.navigate", {"url": url})

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def drag(self, start, end, steps=8):
        """A mouse drag from `start` to `end` (CSS pixels): pointer events for the page."""
        self.send("Input.dispatchMouseEvent", {"type": "mousePressed", "x": start[0], "y": start[1], "button": "left", "clickCount": 1})
        for k in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * k / steps
            y = start[1] + (end[1] - start[1]) * k / steps
            self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y, "button": "left", "buttons": 1})
        self.send("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": end[0], "y": end[1], "button": "left", "clickCount": 1})

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


SHARE = """JSON.stringify((() => {
  const b = document.body, s = window.tripshareShare, $ = (id) => document.getElementById(id);
  const attribution = document.querySelector('.leaflet-control-attribution');
  const a = attribution ? attribution.getBoundingClientRect() : null;
  const shown = performance.getEntriesByName('tripshare-map-shown')[0];
  const recenter = $('recenter');
  return {map: b.dataset.map || '', state: b.dataset.state || '', updates: +(b.dataset.updates || 0),
    expired: +(b.dataset.expired || 0), following: b.dataset.following || '', frames: +(b.dataset.frames || 0),
    basemap: b.dataset.basemap || '', eta: b.dataset.eta || '',
    status: $('status').textContent, minutes: $('eta-minutes').textContent, label: $('eta-label').textContent,
    clock: $('eta-clock').textContent, distance: $('distance').textContent, stops: $('stops').innerText,
    connection: $('connection').textContent, recenter: !recenter.hidden,
    car: s ? s.car() : null, zooming: s ? s.zooming() : false, stop: s ? s.nextStop() : null, area: s ? s.visibleArea() : null, route: s ? s.route() : [],
    zoom: s ? s.zoom() : 0, loading: s ? s.tilesLoading() : false, center: s ? s.center() : [0, 0], drags: s && s.drags ? s.drags() : 0, width: innerWidth, height: innerHeight,
    attribution: a && {left: a.left, top: a.top, right: a.right, bottom: a.bottom, text: attribution.innerText,
      clipped: attribution.scrollWidth > attribution.clientWidth + 1},
    firstMap: shown ? shown.startTime : null,
    tiles: performance.getEntriesByType('resource').filter((e) => e.name.includes('/tiles/')).length};
})())"""


DRIVE_STATE = """JSON.stringify((() => {
  const body = document.body, image = document.getElementById('screen-image'), header = document.getElementById('open-header');
  let headerColor = '';
  if (image.complete && image.naturalWidth && !header.hidden) {
    // The top right corner of the header's main row, in the picture's own pixels.
    const box = header.getBoundingClientRect(), k = image.naturalWidth / window.innerWidth;
    const canvas = document.createElement('canvas');
    canvas.width = 1; canvas.height = 1;
    const context = canvas.getContext('2d');
    context.drawImage(image, Math.round((box.right - 6) * k), Math.round((box.top + 6) * k), 1, 1, 0, 0, 1, 1);
    const p = context.getImageData(0, 0, 1, 1).data;
    headerColor = '#' + [p[0], p[1], p[2]].map((v) => v.toString(16).padStart(2, '0')).join('').toUpperCase();
  }
  return {screen: body.dataset.screen || '', updates: +(body.dataset.updates || 0), step: body.dataset.step || '',
    camera: body.dataset.camera || '', center: body.dataset.center || '', list: body.dataset.list || '',
    steps: +(body.dataset.steps || 0), width: image.naturalWidth, height: image.naturalHeight,
    innerWidth: window.innerWidth, innerHeight: window.innerHeight, ratio: window.devicePixelRatio, alt: image.alt,
    headerColor, recenter: !document.getElementById('recenter').hidden, marker: window.tripshareMarker || 0,
    status: document.getElementById('status').textContent};
})())"""


def wait_for(browser, condition, seconds, what, expression=SHARE):
    end = time.time() + seconds
    state = {}
    while time.time() < end:
        state = json.loads(browser.evaluate(expression) or "{}")
        if condition(state):
            return state
        browser.pump(0.5)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}; page state {state}")


def resume_after_retention(browser, out, failures):
    """Takes the open page offline for longer than the demo keeps events, then online again:
    the page's resumed stream starts with eventsExpired, and the page reads the trip again."""
    offline = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    before = json.loads(browser.evaluate(SHARE) or "{}")
    errors = len(browser.console_errors)
    browser.send("Network.enable")
    browser.send("Network.emulateNetworkConditions", dict(offline, offline=True))
    # Going offline leaves open connections be; stopping the page's loads ends its stream.
    browser.evaluate("window.stop()")
    wait_for(browser, lambda s: s["connection"].startswith("Connection lost"), 60, "the page to notice it is offline")
    browser.pump(RETENTION_SECONDS + 4)
    browser.send("Network.emulateNetworkConditions", dict(offline, offline=False))
    state = wait_for(browser, lambda s: s["expired"] > before["expired"] and s["updates"] > before["updates"]
                     and not s["connection"], 60, "eventsExpired and a new read of the trip after reconnecting")
    # Requests refused while offline are logged as errors by the browser itself.
    browser.console_errors[errors:] = [e for e in browser.console_errors[errors:] if "ERR_INTERNET_DISCONNECTED" not in e]
    path = os.path.join(out, "share-resumed.png")
    settled_screenshot(browser, path, failures, "share resumed")
    print(f"resumed after {RETENTION_SECONDS + 4} s offline: told {state['expired']} time(s) that events expired, "
          f"{state['updates']} updates, {state['status']!r}; screenshot {path}")


class API:
    """Calls to the demo's /v1 API (the test's own, as the provider's backend would make)."""

    def __init__(self, base, token):
        self.base = base
        self.token = token

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")


def check_driver_page(browser, link, api, name, viewport, out, failures, units):
    """The driver's page at one viewport; see the module's docstring."""
    vehicle = "/v1/providers/demo/vehicles/demo-car"
    api.call("DELETE", f"{vehicle}/navigationUISettings")
    browser.open(link, viewport)
    width, height, ratio = viewport["width"], viewport["height"], viewport["deviceScaleFactor"]

    def drawn(s):
        return s.get("screen") == "shown" and s.get("width") == width * ratio and s.get("height") == height * ratio
    state = wait_for(browser, drawn, 60, f"the screen drawn at {width}x{height} points and pixel ratio {ratio}", DRIVE_STATE)
    browser.evaluate("window.tripshareMarker = 1")

    # The current step the page shows is the navigator's.
    def same_step(s):
        info = api.call("GET", f"{vehicle}/navInfo")
        step = info.get("currentStep")
        return step is not None and s["step"].startswith(f"{step['stepNumber']}: ") and s["alt"]
    state = wait_for(browser, same_step, 60, "the navigator's current step", DRIVE_STATE)
    first = state

    # It follows the car: new pictures centred elsewhere, no reload.
    state = wait_for(browser, lambda s: s["updates"] > first["updates"] and s["center"] != first["center"], 60,
                     "the screen to follow the moving car", DRIVE_STATE)

    # A settings change shows without a reload.
    colour = "#C00000" if name == "portrait" else "#0000C0"
    api.call("PUT", f"{vehicle}/navigationUISettings", {"navigationHeaderPrimaryBackgroundColor": colour})
    state = wait_for(browser, lambda s: s["headerColor"] == colour, 30, f"the header in {colour}", DRIVE_STATE)
    if state["marker"] != 1:
        failures.append(f"drive {name}: the page reloaded to show the settings change")

    browser.pump(1)
    path = os.path.join(out, f"drive-{name}.png")
    browser.screenshot(path)
    print(f"drive {name}: step {state['step']!r}, {state['updates']} updates, {state['width']}x{state['height']} px, "
          f"header {state['headerColor']}; screenshot {path}")

    # The directions list is one tap away: on the header.
    browser.evaluate("document.getElementById('open-header').click()")
    state = wait_for(browser, lambda s: s["list"] == "open" and s["steps"] > 0, 20, "the directions list", DRIVE_STATE)
    # Distances in the units asked for (?units=), else in the browser language's (en-US: miles).
    listed = browser.evaluate("document.getElementById('directions').innerText") or ""
    expected_unit = r"\d (km|m)\b" if units == "metric" else r"\d (mi|ft)\b"
    if not re.search(expected_unit, listed):
        failures.append(f"drive {name}: the directions list shows no {units} distances ({listed[:120]!r})")
    path = os.path.join(out, f"drive-{name}-directions.png")
    browser.screenshot(path)
    print(f"drive {name}: directions list with {state['steps']} steps; screenshot {path}")
    browser.evaluate("document.getElementById('close-directions').click()")
    wait_for(browser, lambda s: s["list"] == "closed", 10, "the directions list to close", DRIVE_STATE)

    if name == "portrait":
        # A drag pans the map (a free camera with the recenter button); recenter follows again.
        middle = (width / 2, height / 2)
        browser.drag(middle, (middle[0] + 80, middle[1] + 120))
        state = wait_for(browser, lambda s: s["camera"] == "free" and s["recenter"], 30, "a free camera after the drag", DRIVE_STATE)
        path = os.path.join(out, f"drive-{name}-panned.png")
        browser.screenshot(path)
        print(f"drive {name}: panned to {state['center']}; screenshot {path}")
        browser.evaluate("document.getElementById('recenter').click()")
        wait_for(browser, lambda s: s["camera"] == "following" and not s["recenter"], 30, "following again after recenter", DRIVE_STATE)
        # With scrollGestures off the same drag leaves the camera alone.
        api.call("PUT", f"{vehicle}/navigationUISettings", {"scrollGestures": False, "zoomGestures": False, "rotateGestures": False})
        browser.pump(2)
        browser.drag(middle, (middle[0] + 80, middle[1] + 120))
        browser.pump(2)
        state = json.loads(browser.evaluate(DRIVE_STATE) or "{}")
        if state["camera"] != "following":
            failures.append(f"drive {name}: a drag moved the camera although scrollGestures is false ({state['camera']})")
    api.call("DELETE", f"{vehicle}/navigationUISettings")


FIRST_MAP_LIMIT = None  # ms, from --first-map-limit
MARGIN = 24  # pixels the car and the next stop keep from the visible map's edges
COMBOS = [("phone-day", PHONE, "light"), ("desktop-night", DESKTOP, "dark"), ("phone-night", PHONE, "dark"),
          ("desktop-day", DESKTOP, "light")]


def set_view(browser, viewport, scheme):
    browser.send("Emulation.setDeviceMetricsOverride", viewport)
    browser.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def open_share(browser, link, viewport, scheme):
    browser.open("about:blank", viewport)
    set_view(browser, viewport, scheme)
    browser.send("Page.navigate", {"url": link})
    return wait_for(browser, lambda s: s.get("map") == "shown" and s.get("updates", 0) > 0, 60, "the map and the trip")


def nearest_on(points, x, y):
    """The distance from (x, y) to the polyline `points`, and how far along it (pixels) the nearest point lies."""
    best, best_along, along = float("inf"), 0.0, 0.0
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
        px, py = ax + t * dx, ay + t * dy
        d = ((px - x) ** 2 + (py - y) ** 2) ** 0.5
        if d < best:
            best, best_along = d, along + t * length2 ** 0.5
        along += length2 ** 0.5
    return best, best_along


def check_frame(state, name, failures, moment):
    """The car and the next stop inside the visible map with MARGIN to spare; the attribution whole inside the page."""
    area = state.get("area") or {}
    # Mid zoom animation Leaflet projects at the zoom it leaves while it draws towards the new one.
    if (state.get("following") == "yes" and not state.get("zooming")
            and state.get("state") not in ("COMPLETE", "CANCELED", "EXPIRED")):
        for what in ("car", "stop"):
            point = state.get(what)
            if not point:
                continue
            inside = (area["left"] + MARGIN <= point["x"] <= area["right"] - MARGIN
                      and area["top"] + MARGIN <= point["y"] <= area["bottom"] - MARGIN)
            if not inside:
                failures.append(f"share {name} {moment}: the {what} at ({point['x']:.0f}, {point['y']:.0f}) is not {MARGIN} px "
                                f"inside the visible map {area} ({state.get('state')})")
    a = state.get("attribution")
    if not a or a["left"] < 0 or a["top"] < 0 or a["right"] > state["width"] or a["bottom"] > state["height"] or a["clipped"]:
        failures.append(f"share {name} {moment}: the attribution is not whole inside the page ({a})")
    elif a["bottom"] > area.get("bottom", state["height"]) + 1 or a["right"] < area.get("left", 0):
        failures.append(f"share {name} {moment}: the attribution is under the sheet ({a}, visible map {area})")


# The map as drawn, read from Leaflet's DOM (not the page's own bookkeeping): the tile images
# of the current zoom in the window still loading or fading in, and the points of the trip in
# the window (the drawn car, its route's drawn paths every 8 px, the pins and the badge) over
# no loaded tile of the current zoom; where the drawn car is from the nearest drawn route; the
# drawn pins' and badge's boxes (the next stop's marked).
MAP_DRAWN = """JSON.stringify((() => {
  const s = window.tripshareShare, b = document.body;
  const area = s.visibleArea(), zoom = s.zoom(), car = s.car(), stop = s.nextStop();
  const inArea = (x, y) => x >= 0 && x <= innerWidth && y >= 0 && y <= innerHeight;
  const loaded = [];
  let pending = 0, current = 0;
  for (const img of document.querySelectorAll('.leaflet-tile-pane img.leaflet-tile')) {
    const z = (img.src.match(/\\/(\\d+)\\/\\d+\\/\\d+(@\\dx)?\\.png/) || [])[1];
    if (Number(z) !== zoom) continue;
    const r = img.getBoundingClientRect();
    if (r.right <= 0 || r.left >= innerWidth || r.bottom <= 0 || r.top >= innerHeight) continue;
    current += 1;
    const opaque = img.style.opacity === '' || Number(img.style.opacity) >= 1;
    if (img.classList.contains('leaflet-tile-loaded') && img.complete && img.naturalWidth > 0 && opaque) loaded.push(r);
    else pending += 1;
  }
  const points = [];
  if (car) points.push([car.x, car.y]);
  let gap = null;
  for (const path of document.querySelectorAll('.leaflet-trip-routes-pane path')) {
    const m = path.getScreenCTM(), length = path.getTotalLength();
    for (let d = 0; d <= length; d += 2) {
      const p = path.getPointAtLength(d);
      const x = m.a * p.x + m.c * p.y + m.e, y = m.b * p.x + m.d * p.y + m.f;
      if (d % 8 === 0) points.push([x, y]);
      if (car) { const g = Math.hypot(x - car.x, y - car.y); if (gap === null || g < gap) gap = g; }
    }
  }
  const pins = [];
  for (const element of document.querySelectorAll('.leaflet-marker-pane .pin:not(.car), .leaflet-marker-pane .badge')) {
    const r = element.getBoundingClientRect();
    const badge = element.classList.contains('badge');
    const anchor = badge ? null : [r.left + r.width / 2, r.bottom];
    pins.push({badge, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
      next: Boolean(stop && anchor && Math.abs(anchor[0] - stop.x) < 2 && Math.abs(anchor[1] - stop.y) < r.height)});
    points.push([(r.left + r.right) / 2, (r.top + r.bottom) / 2]);
  }
  const uncovered = points.filter(([x, y]) => inArea(x, y) && !loaded.some((r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom));
  return {state: b.dataset.state || '', following: b.dataset.following || '', zooming: s.zooming(), area, car, stop, gap, pins,
    pending, current, uncovered: uncovered.length, uncoveredAt: uncovered.slice(0, 3).map(([x, y]) => [Math.round(x), Math.round(y)])};
})())"""


def map_problems(view):
    """What a rider would see wrong in the map drawn now: tiles missing under the trip, the car
    or the next stop's pin (or the badge) not inside the visible map, the route not reaching
    the car. Empty when there is nothing."""
    problems = []
    if view["zooming"]:
        problems.append("the camera is zooming")
    if view["pending"]:
        problems.append(f"{view['pending']} of the {view['current']} tiles in the window still loading or fading in")
    if view["uncovered"]:
        problems.append(f"{view['uncovered']} points of the trip over no loaded tile (e.g. {view['uncoveredAt']})")
    area = view["area"]
    live = view["state"] not in ("COMPLETE", "CANCELED", "EXPIRED")
    if view["following"] == "yes" and view["state"] != "EXPIRED":
        if live and view["car"]:
            car = view["car"]
            if not (area["left"] + MARGIN <= car["x"] <= area["right"] - MARGIN and area["top"] + MARGIN <= car["y"] <= area["bottom"] - MARGIN):
                problems.append(f"the car at ({car['x']:.0f}, {car['y']:.0f}) is not {MARGIN} px inside the visible map {area}")
            if view["gap"] is None or view["gap"] > 3:
                problems.append(f"the drawn route does not reach the car (nearest {view['gap'] if view['gap'] is None else round(view['gap'], 1)} px)")
        shown = [p for p in view["pins"] if p["next"] or p["badge"]]
        # An ended trip's pin is where the car stopped, not always the planned dropoff.
        if live and view["stop"] and not any(p["next"] for p in view["pins"]):
            problems.append("the next stop has no pin drawn")
        for pin in shown:
            if pin["left"] < area["left"] or pin["right"] > area["right"] or pin["top"] < area["top"] or pin["bottom"] > area["bottom"]:
                what = "the ETA badge" if pin["badge"] else "the next stop's pin"
                problems.append(f"{what} ({pin['left']:.0f}, {pin['top']:.0f})-({pin['right']:.0f}, {pin['bottom']:.0f}) is not whole inside the visible map {area}")
    return problems


SETTLE_LIMIT = 20.0  # seconds a screenshot waits for the map to be whole (from --settle-limit)


def settled_screenshot(browser, path, failures, what):
    """Waits (at most SETTLE_LIMIT seconds) until the map a rider sees is whole (map_problems),
    then takes the screenshot; a map still not whole by then is a failure, shot as it is.
    Returns the seconds waited."""
    start = time.time()
    while True:
        view = json.loads(browser.evaluate(MAP_DRAWN) or "{}")
        problems = map_problems(view)
        if not problems or time.time() - start >= SETTLE_LIMIT:
            break
        browser.pump(0.1)
    if problems:
        failures.append(f"{what}: the map was not whole {SETTLE_LIMIT:.0f} s on ({view['state']}): " + "; ".join(problems))
    browser.screenshot(path)
    return time.time() - start


def check_glide(samples, failures):
    """Between two fixes, the car drawn within 3 px of the route and moving forwards along it."""
    checked = worst = 0
    backwards = []
    for previous, sample in zip(samples, samples[1:]):
        car, route = sample["car"], sample["route"]
        # Mid zoom animation the drawn car and the route projected at the new zoom disagree.
        if not car or len(route) < 2 or sample.get("zooming") or previous.get("zooming"):
            continue
        distance, along = nearest_on(route, car["x"], car["y"])
        checked += 1
        worst = max(worst, distance)
        if distance > 3:
            failures.append(f"share glide: the car is drawn {distance:.1f} px off its route ({sample['combo']}, fix {car['fix']})")
        same = (previous["car"] and previous["car"]["fix"] == car["fix"] and previous["combo"] == sample["combo"]
                and previous["zoom"] == sample["zoom"])
        if same:
            _, before = nearest_on(route, previous["car"]["x"], previous["car"]["y"])
            if car["along"] < previous["car"]["along"] - 1e-6 or along < before - 1.0:
                backwards.append((car["fix"], round(before, 1), round(along, 1)))
    if backwards:
        failures.append(f"share glide: the car moved backwards along its route {len(backwards)} times, e.g. {backwards[:3]}")
    print(f"share glide: {checked} samples at 10 Hz, at most {worst:.2f} px from the route, {len(backwards)} steps back")


def idle_frames(browser):
    """(animation frames, new fixes) over 2 s while the car waits at the pickup, from 1.2 s
    after it got there, or None when the state changed meanwhile (then it is tried again).
    A car at rest is drawn once per fix; an animation loop left running would draw some 120."""
    browser.pump(1.2)  # the catch-up on the arrival's fix takes at most a second
    start = json.loads(browser.evaluate(SHARE) or "{}")
    browser.pump(2.0)
    end = json.loads(browser.evaluate(SHARE) or "{}")
    if {start.get("state"), end.get("state")} != {"ARRIVED_AT_PICKUP"} or not start.get("car") or not end.get("car"):
        return None
    return end["frames"] - start["frames"], end["car"]["fix"] - start["car"]["fix"]


FIRST_MAP_TIMELINE = """JSON.stringify((() => {
  const shown = performance.getEntriesByName('tripshare-map-shown')[0];
  const nav = performance.getEntriesByType('navigation')[0];
  const until = shown ? shown.startTime : Infinity;
  const kind = (n) => /\\/tiles\\/|\\/share\\/[^/]+\\/tiles\\//.test(n) && /\\.png/.test(n) ? 'tiles'
    : /\\.js$/.test(n) ? 'scripts' : /\\.css$/.test(n) ? 'css' : /markers/.test(n) ? 'icons'
    : /\\/v1\\/styles\\//.test(n) ? 'sheet' : /\\/trips\\//.test(n) ? 'trip' : 'other';
  const groups = {};
  for (const e of performance.getEntriesByType('resource')) {
    if (e.startTime > until) continue;
    const g = groups[kind(e.name)] = groups[kind(e.name)] || {count: 0, start: Infinity, end: 0, longest: 0};
    g.count += 1; g.start = Math.min(g.start, e.startTime); g.end = Math.max(g.end, e.responseEnd);
    g.longest = Math.max(g.longest, e.responseEnd - e.startTime);
  }
  return {document: nav ? nav.responseEnd : 0, parsed: nav ? nav.domInteractive : 0, shown: shown ? shown.startTime : 0, groups};
})())"""


def print_first_map_timeline(browser):
    """Where the first map's time went: each kind of request's first start and last end, from navigation."""
    timeline = json.loads(browser.evaluate(FIRST_MAP_TIMELINE) or "{}")
    parts = [f"document {timeline.get('document', 0):.0f}", f"parsed {timeline.get('parsed', 0):.0f}"]
    for name, group in sorted(timeline.get("groups", {}).items(), key=lambda item: item[1]["start"]):
        parts.append(f"{name} x{group['count']} {group['start']:.0f}-{group['end']:.0f} (longest {group['longest']:.0f})")
    print(f"share: first map at {timeline.get('shown', 0):.0f} ms: " + ", ".join(parts))


def check_share_gestures(browser, link, out, failures):
    """A drag and a wheel zoom move the map and fetch new tiles; the recenter button brings the camera back."""
    state = open_share(browser, link, DESKTOP, "light")
    browser.pump(1.5)
    state = json.loads(browser.evaluate(SHARE) or "{}")
    print(f"share: first map drawn {state['firstMap']:.0f} ms after navigation; basemap {state['basemap']}")
    print_first_map_timeline(browser)
    if FIRST_MAP_LIMIT is not None and state["firstMap"] > FIRST_MAP_LIMIT:
        failures.append(f"share: the first map took {state['firstMap']:.0f} ms, more than {FIRST_MAP_LIMIT:.0f}")
    before = state
    middle = (DESKTOP["width"] * 0.65, DESKTOP["height"] / 2)
    # Dragged at once, whatever the following camera is doing: a press during its zoom
    # animation takes the map too (checked on purpose below).
    browser.drag(middle, (middle[0] - 420, middle[1] - 260), steps=12)
    state = wait_for(browser, lambda s: s["tiles"] > before["tiles"] and s["recenter"], 20, "new tiles after a drag")
    if state["center"] == before["center"] or state["following"] != "no":
        failures.append(f"share: a drag did not move the map or stop following ({before['center']} -> {state['center']})")
    dragged = state
    for _ in range(3):
        browser.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": middle[0], "y": middle[1], "deltaX": 0, "deltaY": -240})
        browser.pump(0.3)
    # Until every tile of the new zoom is in, Leaflet shows the previous zoom's scaled up (their
    # lines at that zoom's widths, so they do not meet the new tiles): shot once they are all in.
    state = wait_for(browser, lambda s: s["zoom"] > dragged["zoom"] and s["tiles"] > dragged["tiles"] and not s["loading"], 30,
                     "a wheel zoom and all its tiles")
    path = os.path.join(out, "share-desktop-panned.png")
    settled_screenshot(browser, path, failures, "share panned")
    print(f"share: drag moved the map, {dragged['tiles'] - before['tiles']} tiles fetched; wheel zoom {dragged['zoom']} -> "
          f"{state['zoom']}, {state['tiles'] - dragged['tiles']} more; screenshot {path}")
    check_press_during_zoom(browser, middle, failures)
    browser.evaluate("document.getElementById('recenter').click()")
    wait_for(browser, lambda s: s["following"] == "yes" and not s["recenter"], 20, "following again after Re-center")


def check_press_during_zoom(browser, middle, failures):
    """A drag pressed while a zoom animates moves the map. Leaflet 1.6 alone ignores such a
    press (its Draggable returns while the map pane has leaflet-zoom-anim), so a rider's drag
    during the following camera's zoom did nothing; the page ends the animation on a press."""
    before = json.loads(browser.evaluate(SHARE) or "{}")
    browser.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": middle[0], "y": middle[1], "deltaX": 0, "deltaY": 240})
    end = time.time() + 3
    while time.time() < end and not browser.evaluate("!!document.querySelector('.leaflet-zoom-anim')"):
        pass
    if time.time() >= end:
        failures.append("share: a wheel zoom started no zoom animation within 3 s")
        return
    browser.drag(middle, (middle[0] + 200, middle[1] + 150), steps=6)
    browser.pump(0.5)
    state = json.loads(browser.evaluate(SHARE) or "{}")
    if state["drags"] <= before["drags"]:
        failures.append("share: a drag pressed during a zoom animation did not move the map")
    else:
        print("share: a drag pressed during a zoom animation moved the map")


def check_share_drive(browser, link, out, failures):
    """The whole demo drive, sampled at 10 Hz, the viewport and the lighting changing every few seconds."""
    open_share(browser, link, PHONE, "light")
    samples, shots, states = [], {}, []
    idle = None
    combo, switched = 0, time.time()
    deadline = time.time() + 900
    tick = time.time()
    while time.time() < deadline:
        if time.time() - switched > 5:
            combo = (combo + 1) % len(COMBOS)
            set_view(browser, COMBOS[combo][1], COMBOS[combo][2])
            browser.pump(0.8)  # the page lays out again and frames the car anew
            switched = time.time()
        name = COMBOS[combo][0]
        state = json.loads(browser.evaluate(SHARE) or "{}")
        state["combo"] = name
        if not states or states[-1] != state["state"]:
            states.append(state["state"])
        check_frame(state, name, failures, f"at {state['state']}")
        samples.append(state)
        # First thing at the pickup (it lasts about 7 s at this speed; a screenshot's wait for
        # a whole map may take most of that): is the page idle while the car waits?
        if state["state"] == "ARRIVED_AT_PICKUP" and idle is None:
            idle = idle_frames(browser)
            tick = time.time()
            continue
        near_end = state["state"] == "ENROUTE_TO_DROPOFF" and state["distance"] and re.match(r"^(\d+ (m|ft))$", state["distance"])
        moment = "arrived" if near_end else state["state"]
        if moment and moment not in shots and time.time() - switched > 0.3:
            path = os.path.join(out, f"share-{moment.lower()}-{name}.png")
            waited = settled_screenshot(browser, path, failures, f"share {moment} {name}")
            shots[moment] = path
            print(f"share {moment}: {state['status']!r}, {state['minutes']} {state['label']}, {state['clock']}, "
                  f"{state['distance']}; stops {state['stops']!r}; map whole after {waited:.1f} s; screenshot {path}")
        if state["state"] == "COMPLETE":
            break
        tick += 0.1
        browser.pump(max(0.0, tick - time.time()))
    if states[-1:] != ["COMPLETE"]:
        failures.append(f"share: the drive did not end in COMPLETE within the time (states {states})")
    expected = ["ENROUTE_TO_PICKUP", "ARRIVED_AT_PICKUP", "ENROUTE_TO_DROPOFF", "COMPLETE"]
    if [s for s in states if s in expected] != expected:
        failures.append(f"share: the states shown were {states}, expected {expected} in order")
    check_glide([s for s in samples if s["state"] in ("ENROUTE_TO_PICKUP", "ENROUTE_TO_DROPOFF")], failures)
    if idle is None:
        failures.append("share idle: no 2 s at the pickup were sampled, so idleness was not checked")
    else:
        frames, fixes = idle
        verdict = "ok" if frames <= 2 * fixes + 2 else "FAIL"
        print(f"share idle: {frames} animation frames in 2 s at the pickup for {fixes} new fixes ({verdict})")
        if verdict == "FAIL":
            failures.append(f"share idle: {frames} animation frames in 2 s at the pickup for {fixes} new fixes")
    # Nothing moves once the trip is complete: no animation frames.
    browser.pump(1.5)
    first = json.loads(browser.evaluate(SHARE) or "{}")
    browser.pump(2)
    rest = json.loads(browser.evaluate(SHARE) or "{}")
    if rest["frames"] != first["frames"]:
        failures.append(f"share: {rest['frames'] - first['frames']} animation frames in 2 s after the trip ended")
    for name, viewport, scheme in COMBOS:
        set_view(browser, viewport, scheme)
        browser.pump(0.8)
        state = json.loads(browser.evaluate(SHARE) or "{}")
        check_frame(state, name, failures, "complete")
        path = os.path.join(out, f"share-complete-{name}.png")
        settled_screenshot(browser, path, failures, f"share complete {name}")
    print(f"share complete: {state['status']!r}, {state['minutes']} {state['label']}, {state['clock']}; "
          f"{len(samples)} samples; screenshots share-complete-*.png")


def check_reroute_key(browser, share, api, failures):
    """A reroute that keeps the car on its old path (the route changes only beyond the car):
    the page asks for the new key and its tiles switch to it."""
    base, token = share.split("/share/")

    def current_key():
        with urllib.request.urlopen(f"{base}/share/{token}/map.json", timeout=30) as response:
            return json.loads(response.read())["key"]

    def page_key(state):
        match = re.search(r"/tiles/(k[0-9a-f]+)/", state.get("tilesURL", ""))
        return match.group(1) if match else ""

    expression = SHARE.replace("return {map:", "return {tilesURL: b.dataset.tiles || '', map:")
    before = current_key()
    wait_for(browser, lambda s: page_key(s) == before, 30, f"the page on the current key {before}", expression)
    vehicle_path = "/v1/providers/demo/vehicles/demo-car"
    vehicle = api.call("GET", vehicle_path)
    points = navroutes.decode_polyline(vehicle.get("currentRouteSegment") or "")
    car = (vehicle.get("lastLocation") or {}).get("location") or {}
    if len(points) < 3 or "latitude" not in car:
        failures.append(f"share reroute: the demo's car has no route to change ({len(points)} points)")
        return
    # A detour of about 150 m to the side of the first segment that starts well ahead of the
    # car (200 m, or half of what is left): the page must see the new route before the car has
    # passed it. The segment next to the car's, a few metres ahead on this route's dense
    # points, was passed before a loaded machine's page had read the route (CI, stop 58).
    car_point = (car["latitude"], car["longitude"])
    nearest = min(range(len(points) - 1), key=lambda i: navroutes.haversine(points[i], car_point))
    remaining = [navroutes.haversine(car_point, points[nearest])]
    for i in range(nearest + 1, len(points)):
        remaining.append(remaining[-1] + navroutes.haversine(points[i - 1], points[i]))
    ahead = min(200.0, remaining[-1] / 2)
    at = next((i for i in range(nearest, len(points) - 2) if remaining[i - nearest] >= ahead), len(points) - 2)
    (a_lat, a_lng), (b_lat, b_lng) = points[at], points[at + 1]
    length = max(((b_lat - a_lat) ** 2 + (b_lng - a_lng) ** 2) ** 0.5, 1e-9)
    side = (-(b_lng - a_lng) / length * 0.00135, (b_lat - a_lat) / length * 0.00135)
    detour = points[:at + 1] + [((a_lat + b_lat) / 2 + side[0], (a_lng + b_lng) / 2 + side[1] * 2)] + points[at + 1:]
    api.call("PUT", f"{vehicle_path}?updateMask=currentRouteSegment", {"currentRouteSegment": navroutes.encode_polyline(detour)})
    after = current_key()
    if after == before:
        failures.append("share reroute: map.json's key did not change with the new route")
        return
    try:
        state = wait_for(browser, lambda s: page_key(s) not in ("", before) and page_key(s) == current_key(), 30,
                         "the page's tiles on the new key", expression)
        print(f"share reroute on the old path (a detour after point {at} of {len(points)}, {remaining[at - nearest]:.0f} m ahead "
              f"of the car): key {before} -> {page_key(state)}")
    except AssertionError as error:
        failures.append(f"share reroute (a detour after point {at} of {len(points)}, {remaining[at - nearest]:.0f} m ahead of the car; "
                        f"keys: before {before}, after the PUT {after}, now {current_key()}): {error}")


def check_expiring_link(browser, demo, out, share, failures):
    """A link whose token expires while the page is open ends in a final state that says so."""
    trip = re.search(r'data-trip="([^"]+)"', urllib.request.urlopen(share, timeout=30).read().decode()).group(1)
    link = share.split("/share/")[0] + "/share/" + demo.token(role="consumer", provider="demo", trip=trip, ttl=6)
    errors = len(browser.console_errors)
    open_share(browser, link, PHONE, "dark")
    state = wait_for(browser, lambda s: s["state"] == "EXPIRED", 60, "the expired link's final state")
    browser.pump(0.5)
    path = os.path.join(out, "share-expired-phone-night.png")
    settled_screenshot(browser, path, failures, "share expired")
    print(f"share expired: {state['status']!r}, {state['connection']!r}; screenshot {path}")
    # The refused requests are logged by the browser itself, also one still under way when the
    # page turned to its expired state.
    browser.pump(2)
    browser.console_errors[errors:] = [e for e in browser.console_errors[errors:] if "401" not in e]


def first_match(stream, pattern, seconds):
    """The first group of the first line of `stream` that matches, within `seconds`."""
    end = time.time() + seconds
    while time.time() < end:
        line = stream.readline()
        if not line:
            return None
        match = re.search(pattern, line)
        if match:
            return match.group(1)
    return None


def start_demo(binary, work, processes, *args, name="demo"):
    """`tripshare demo ARGS` on a free port with its data in WORK/NAME, through the system tests'
    launcher (scripts/lib/server.py) and added to `processes`: the server and the rider's share
    link it prints."""
    demo = Server(binary, *args, command="demo", work=work, data_dir=os.path.join(work, name), cwd=ROOT, name=name)
    processes.append(demo)
    share = demo.printed(r"(http://\S+/share/\S+)", 120)
    if share is None:
        raise AssertionError(f"{name} printed no share link")
    return demo, share


def start_chromium(work, processes, *flags):
    """A headless Chromium with its profile in WORK and FLAGS added, added to `processes`: the
    Browser driving it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chrome = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--no-first-run", *flags, "--remote-debugging-port=0",
                               f"--user-data-dir={os.path.join(work, 'chrome')}", "about:blank"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    processes.append(chrome)
    ws_url = first_match(chrome.stderr, r"DevTools listening on (ws://\S+)", 60)
    if ws_url is None:
        raise AssertionError("chromium did not start its DevTools endpoint")
    return Browser(ws_url)


def stop(processes):
    """Ends the servers and processes this script started: SIGTERM, then SIGKILL after 10 s."""
    for process in processes:
        if isinstance(process, Server):
            process.stop()
        elif process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tripshare", default=os.path.join(ROOT, ".build", "debug", "tripshare"))
    parser.add_argument("--out", default=os.path.join(ROOT, "out", "browser"))
    parser.add_argument("--drive-speed", type=float, default=3, help="the speed factor of the demo drive sampled whole")
    parser.add_argument("--settle-limit", type=float, default=20.0,
                        help="seconds a screenshot waits for the map to be whole (0: shoot at once, as before)")
    parser.add_argument("--first-map-limit", type=float, default=None,
                        help="fail when the share page's first map takes longer (ms; for a release build)")
    args = parser.parse_args()
    global FIRST_MAP_LIMIT, SETTLE_LIMIT
    FIRST_MAP_LIMIT = args.first_map_limit
    SETTLE_LIMIT = args.settle_limit
    os.makedirs(args.out, exist_ok=True)
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        sys.exit("chromium is not installed: scripts/setup-debian chromium python3-websocket libjs-leaflet")

    work = tempfile.mkdtemp(prefix="tripshare-browser-")
    processes, failures = [], []
    try:
        demo, share = start_demo(args.tripshare, work, processes, "--speed-factor", "2", "--event-retention", f"{RETENTION_SECONDS}s",
                                 # Tokens expire when they say (the expiring link's check), not a minute later.
                                 "--token-clock-skew", "1s")
        print("share page:", share.split("/share/")[0] + "/share/<token>")
        drive = demo.printed(r"(http://\S+/drive/\S+)", 30)
        if drive is None:
            raise AssertionError("the demo printed no driver's link")
        api = API(share.split("/share/")[0], demo.token(role="server", provider="*"))
        browser = start_chromium(work, processes, "--disable-gpu", "--lang=en-US")
        check_share_gestures(browser, share, args.out, failures)
        check_reroute_key(browser, share, api, failures)
        resume_after_retention(browser, args.out, failures)
        check_expiring_link(browser, demo, args.out, share, failures)
        # Upright as the browser's language (en-US) says: miles; sideways as the link asks.
        for name, viewport, link, units in (("portrait", PHONE, drive, "imperial"),
                                            ("landscape", PHONE_LANDSCAPE, drive + "?units=metric", "metric")):
            check_driver_page(browser, link, api, name, viewport, args.out, failures, units)
        # The whole drive on the share page, on a demo of its own (the one above has moved on).
        _, drive_share = start_demo(args.tripshare, work, processes, "--speed-factor", str(args.drive_speed), name="drive-demo")
        check_share_drive(browser, drive_share, args.out, failures)
        if browser.console_errors:
            failures.append("console errors: " + "; ".join(browser.console_errors[:5]))
    except (AssertionError, RuntimeError) as error:
        failures.append(str(error))
    finally:
        stop(processes)
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL", failure)
    print("browser test:", "FAILED" if failures else "passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
