#!/usr/bin/env python3
"""Opens the rider's share page and the driver's page of `tripshare demo` in headless Chromium
and checks them.

Starts the demo on a free port with a temporary data folder, opens the printed share link
at a phone-sized and a desktop viewport (DevTools protocol over a websocket), waits for a
live update (an event that refreshed the trip) and for the next maneuver (its icon loaded,
its instruction shown), saves a screenshot of each viewport, and fails if the page shows no
map, no ETA, no maneuver, or logs a console error. The demo keeps events for a few seconds
only (--event-retention): the desktop page is then taken offline for longer than that, and
must hear on reconnecting that the events it missed are gone (eventsExpired) and read the
trip again.
The driver's link, on a phone held upright (390x844) and sideways (844x390) at pixel ratio 2:
the screen is drawn at the window's size and pixel ratio, shows the current step (the one the
API's navInfo has) and follows the car as it moves; a settings change made through the API
(the header's colour) shows without a reload; the directions list opens from the header; and,
upright, a drag pans the map to a free camera whose recenter button returns to following,
while with scrollGestures off a drag does nothing.

Needs Debian's chromium and python3-websocket (scripts/setup-debian chromium python3-websocket).
Usage: scripts/browser_test.py [--tripshare PATH] [--out DIR]
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


STATE = """JSON.stringify({map: document.body.dataset.map || '', eta: document.body.dataset.eta || '',
  updates: +(document.body.dataset.updates || 0), expired: +(document.body.dataset.expired || 0),
  connection: document.getElementById('connection').textContent,
  minutes: document.getElementById('eta-minutes').textContent,
  status: document.getElementById('status').textContent,
  image: document.getElementById('map').naturalWidth, alt: document.getElementById('map').alt,
  maneuver: !document.getElementById('maneuver').hidden,
  maneuverIcon: document.getElementById('maneuver-icon').complete ? document.getElementById('maneuver-icon').naturalWidth : 0,
  maneuverAlt: document.getElementById('maneuver-icon').alt,
  maneuverText: document.getElementById('maneuver-text').textContent.trim(),
  maneuverIconLuminance: (() => {
    const icon = document.getElementById('maneuver-icon');
    if (!icon.complete || !icon.naturalWidth) return -1;
    const canvas = document.createElement('canvas');
    canvas.width = icon.naturalWidth; canvas.height = icon.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(icon, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
    let sum = 0, weight = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      const a = pixels[i + 3] / 255;
      sum += a * (0.2126 * pixels[i] + 0.7152 * pixels[i + 1] + 0.0722 * pixels[i + 2]) / 255;
      weight += a;
    }
    return weight ? sum / weight : -1;
  })()})"""


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


def wait_for(browser, condition, seconds, what, expression=STATE):
    end = time.time() + seconds
    state = {}
    while time.time() < end:
        state = json.loads(browser.evaluate(expression) or "{}")
        if condition(state):
            return state
        browser.pump(0.5)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}; page state {state}")


def resume_after_retention(browser, out):
    """Takes the open page offline for longer than the demo keeps events, then online again:
    the page's resumed stream starts with eventsExpired, and the page reads the trip again."""
    offline = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    before = json.loads(browser.evaluate(STATE) or "{}")
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
    browser.screenshot(path)
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


def main():
    parser = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--tripshare", default=os.path.join(root, ".build", "debug", "tripshare"))
    parser.add_argument("--out", default=os.path.join(root, "out", "browser"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("chromium is not installed: scripts/setup-debian chromium python3-websocket")

    work = tempfile.mkdtemp(prefix="tripshare-browser-")
    processes = []
    failures = []
    try:
        demo = subprocess.Popen([args.tripshare, "demo", "--port", "0", "--data-dir", os.path.join(work, "data"),
                                 "--speed-factor", "2", "--event-retention", f"{RETENTION_SECONDS}s"],
                                cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        processes.append(demo)
        share = first_match(demo.stdout, r"(http://\S+/share/\S+)", 120)
        if share is None:
            raise AssertionError("the demo printed no share link")
        print("share page:", share.split("/share/")[0] + "/share/<token>")
        drive = first_match(demo.stdout, r"(http://\S+/drive/\S+)", 30)
        if drive is None:
            raise AssertionError("the demo printed no driver's link")
        base = share.split("/share/")[0]
        minted = subprocess.run([args.tripshare, "token", "--role", "server", "--data-dir", os.path.join(work, "data")],
                                capture_output=True, text=True, check=True)
        api = API(base, minted.stdout.strip())

        chrome = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--lang=en-US",
                                   "--remote-debugging-port=0", f"--user-data-dir={os.path.join(work, 'chrome')}", "about:blank"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        processes.append(chrome)
        ws_url = first_match(chrome.stderr, r"DevTools listening on (ws://\S+)", 60)
        if ws_url is None:
            raise AssertionError("chromium did not start its DevTools endpoint")

        browser = Browser(ws_url)
        for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            browser.open(share, viewport)
            state = wait_for(browser, lambda s: s.get("map") == "shown" and s.get("image", 0) > 0, 60, "the map")
            first = state["updates"]
            state = wait_for(browser, lambda s: s["updates"] > first, 60, "a live update")
            # The demo's car navigates a route with steps: the next maneuver shows, with its
            # icon loaded and its instruction.
            state = wait_for(browser, lambda s: s["maneuver"] and s["maneuverIcon"] > 0 and s["maneuverText"], 60,
                             "the next maneuver (icon and text)")
            # The box is dark green: the icon must be drawn light to be seen on it.
            if state["maneuverIconLuminance"] < 0.6:
                failures.append(f"{name}: the maneuver icon is too dark for its box "
                                f"(mean luminance {state['maneuverIconLuminance']:.2f})")
            browser.pump(1)
            path = os.path.join(args.out, f"share-{name}.png")
            browser.screenshot(path)
            state = json.loads(browser.evaluate(STATE) or "{}")  # what the screenshot shows
            print(f"{name}: {state['status']!r}, ETA {state['minutes']!r}, {state['updates']} updates, "
                  f"next {state['maneuverText']!r} ({state['maneuverAlt']}, icon {state['maneuverIcon']} px); screenshot {path}")
            if state.get("eta") not in ("shown", "ended") or state.get("minutes") in ("", "–"):
                failures.append(f"{name}: the page shows no ETA ({state})")
            if not state.get("alt", "").startswith("Map of your trip"):
                failures.append(f"{name}: the map has no text alternative ({state.get('alt')!r})")
        resume_after_retention(browser, args.out)
        # Upright as the browser's language (en-US) says: miles; sideways as the link asks.
        for name, viewport, link, units in (("portrait", PHONE, drive, "imperial"),
                                            ("landscape", PHONE_LANDSCAPE, drive + "?units=metric", "metric")):
            check_driver_page(browser, link, api, name, viewport, args.out, failures, units)
        if browser.console_errors:
            failures.append("console errors: " + "; ".join(browser.console_errors[:5]))
    except AssertionError as error:
        failures.append(str(error))
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL", failure)
    print("browser test:", "FAILED" if failures else "passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
