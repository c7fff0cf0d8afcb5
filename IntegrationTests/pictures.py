#!/usr/bin/env python3
"""Pictures cost by pixels (issue 29, item 4): one rider's token asks for the largest previews
(2048×2048) from --clients connections at once, as fast as the server answers, while a probe
asks `/healthz` every 20 ms. With the standard limits the token gets what its pixel budget
allows (8 million a second, in bursts of 24 million) and 429 with Retry-After beyond; with
every per-token limit off (--unlimited) it keeps the drawing threads busy the whole time. Either
way `/healthz` must stay under --p99-limit ms at p99: pictures are drawn on threads of their
own, a bounded number at once, never on the threads that answer everything else.

    IntegrationTests/pictures.py BINARY [--seconds 10] [--clients 4] [--unlimited] [--p99-limit 50]
"""
import argparse
import threading
import time

import harness
from harness import check

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--seconds", type=float, default=10)
parser.add_argument("--clients", type=int, default=4)
parser.add_argument("--unlimited", action="store_true", help="--rate-limit 0 --pixel-rate 0: only the drawing queue bounds it")
parser.add_argument("--p99-limit", type=float, default=50)
args = parser.parse_args()

flags = ["--rate-limit", "0", "--pixel-rate", "0"] if args.unlimited else []
server = harness.Server(args.binary, *flags, name="pictures")
admin = server.token("--role", "server", "--provider", "p")
for method, path, body in [
    ("POST", "/v1/providers/p/vehicles?vehicleId=v1", {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"],
                                                       "maximumCapacity": 4, "vehicleType": {"category": "AUTO"},
                                                       "lastLocation": {"location": {"latitude": 37.39, "longitude": -122.0}}}),
    ("POST", "/v1/providers/p/trips?tripId=t1", {"tripType": "EXCLUSIVE", "vehicleId": "v1",
                                                 "pickupPoint": {"point": {"latitude": 37.40, "longitude": -122.0}},
                                                 "dropoffPoint": {"point": {"latitude": 37.42, "longitude": -122.01}}}),
]:
    status, _ = harness.call(server.port, method, path, body=body, token=admin)
    check(status == 200, f"{method} {path} ({status})")
rider = server.token("--role", "consumer", "--provider", "p", "--trip", "t1")
stop, probes, answers, lock = threading.Event(), [], {}, threading.Lock()


def probe():
    while not stop.is_set():
        started = time.monotonic()
        status, _ = harness.get(server.port, "/healthz", timeout=5)
        probes.append((time.monotonic() - started) * 1000 if status == 200 else float("inf"))
        time.sleep(max(0, 0.02 - (time.monotonic() - started)))


def draw(k):
    sent = 0
    while not stop.is_set():
        # A fresh bearing each time: requests seldom share an ETag, so each is drawn.
        sent += 1
        path = f"/v1/providers/p/trips/t1/preview.png?width=512&height=512&scale=4&bearing={(k * 89 + sent * 7) % 360}"
        try:
            status, _ = harness.call(server.port, "GET", path, token=rider, timeout=30)
        except OSError:
            status = None
        with lock:
            answers[status] = answers.get(status, 0) + 1
        if status == 429:
            time.sleep(0.05)


threads = [threading.Thread(target=probe)] + [threading.Thread(target=draw, args=(k,)) for k in range(args.clients)]
for thread in threads:
    thread.start()
time.sleep(args.seconds)
stop.set()
for thread in threads:
    thread.join()
drawn = answers.get(200, 0)
megapixels = drawn * 2048 * 2048 / 1e6
p99 = harness.percentile(probes, 0.99)
print(f"{drawn} previews of 2048×2048 drawn in {args.seconds:g} s ({megapixels / args.seconds:.1f} million pixels a second); "
      f"answers {dict(sorted(answers.items(), key=str))}", flush=True)
if not args.unlimited:
    budget = 8 * args.seconds + 24
    check(megapixels <= budget * 1.05, f"the token got at most its budget: {megapixels:.0f} of {budget:.0f} million pixels")
    check(answers.get(429, 0) > 0, "requests beyond the budget were answered 429")
check(p99 < args.p99_limit, f"/healthz p99 {p99:.1f} ms (p50 {harness.percentile(probes, 0.5):.1f} ms, max {max(probes):.1f} ms, "
      f"{len(probes)} probes) under {args.p99_limit:g} ms")
check(server.stop() == 0, "the server stopped cleanly")
harness.finish("pictures" + (" (no per-token limits)" if args.unlimited else ""))
