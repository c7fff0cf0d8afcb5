#!/usr/bin/env python3
"""Opens the rider's share page of `tripshare demo` in headless Chromium and checks it.

Starts the demo on a free port with a temporary data folder, opens the printed share link
at a phone-sized and a desktop viewport (DevTools protocol over a websocket), waits for a
live update (an event that refreshed the trip) and for the next maneuver (its icon loaded,
its instruction shown), saves a screenshot of each viewport, and fails if the page shows no
map, no ETA, no maneuver, or logs a console error. The demo keeps events for a few seconds
only (--event-retention): the desktop page is then taken offline for longer than that, and
must hear on reconnecting that the events it missed are gone (eventsExpired) and read the
trip again.

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

try:
    import websocket  # Debian's python3-websocket
except ImportError:  # a Python other than Debian's (pyenv, venv): use Debian's package
    sys.path.append("/usr/lib/python3/dist-packages")
    import websocket

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
# How long the demo keeps events: short, so that the page misses deleted ones when offline.
RETENTION_SECONDS = 3
DESKTOP = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}


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


def wait_for(browser, condition, seconds, what):
    end = time.time() + seconds
    state = {}
    while time.time() < end:
        state = json.loads(browser.evaluate(STATE) or "{}")
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
                                 "--speed-factor", "3", "--event-retention", f"{RETENTION_SECONDS}s"],
                                cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        processes.append(demo)
        share = first_match(demo.stdout, r"(http://\S+/share/\S+)", 120)
        if share is None:
            raise AssertionError("the demo printed no share link")
        print("share page:", share.split("/share/")[0] + "/share/<token>")

        chrome = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
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
