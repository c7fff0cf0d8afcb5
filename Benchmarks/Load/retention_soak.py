#!/usr/bin/env python3
"""Soak test of event retention (issue 17, item 3): a fleet that reports at a steady rate with
a short retention keeps a database of steady size.

Starts `tripshare serve --event-retention RETENTION` on a temporary database, creates
--vehicles vehicles with one trip each (with --navigate also a route with steps, so every
update runs the navigator and logs its events), then sends location updates at --rate per
second, round robin over the vehicles, for --duration seconds. Every --sample seconds it
records the database file, its WAL and SQLite's live pages (page_count minus the free list),
and at the end prints the samples and whether the size levelled off: the database file grew
by less than 5% over the last third of the run (the WAL is reused after checkpoints and
stays under its 16 MiB bound, with or without retention; docs/limits.md says what may hold it
longer).

What the log keeps at steady state is every event of the last RETENTION, plus each vehicle's
newest 1,000 locations (its history) however old: a run reaches it once every vehicle has
sent 1,000 updates and RETENTION has passed (--vehicles * 1000 / --rate + RETENTION seconds).
--retention 3650d measures the log without retention (the size per 10,000 updates).

--readers N adds N threads that read trips back-to-back the whole time (a steady stream of
reads, the case in which SQLite may find no moment to start its write-ahead log over). The
WAL file's size is also watched every --wal-sample seconds (0.1) for its peak, and
--wal-limit-mb judges it: the run fails if the peak is larger (docs/limits.md says what bound
the server keeps and why).

    python3 Benchmarks/Load/retention_soak.py [--binary .build/release/tripshare] [--vehicles 50] [--rate 400]
        [--duration 240] [--retention 30s] [--navigate] [--readers 4] [--wal-limit-mb 24]
"""
import argparse
import http.client
import json
import math
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import navroutes  # noqa: E402
from server import Server  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROVIDER = "soak"
ROUTE_POINTS = 61
STEP_METRES = 10


class Connection:
    """A keep-alive HTTP connection that sends JSON with the server token."""

    def __init__(self, port, auth):
        self.port, self.auth, self.http = port, auth, None

    def call(self, method, path, body=None):
        for attempt in range(2):
            try:
                if self.http is None:
                    self.http = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                data = None if body is None else json.dumps(body).encode()
                self.http.request(method, path, body=data, headers={"Authorization": "Bearer " + self.auth,
                                                                     "Content-Type": "application/json"})
                response = self.http.getresponse()
                payload = response.read()
                return response.status, payload
            except (OSError, http.client.HTTPException):
                self.http = None
                if attempt:
                    raise
        return 0, b""


def origin(i):
    return 52.30 + (i // 40) * 0.01, 13.10 + (i % 40) * 0.05


def database_sample(path):
    main = os.path.getsize(path) if os.path.exists(path) else 0
    wal = os.path.getsize(path + "-wal") if os.path.exists(path + "-wal") else 0
    pages = free = events = 0
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        db.close()
    except sqlite3.Error:
        pass
    return main, wal, pages - free, events


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "tripshare"))
    parser.add_argument("--vehicles", type=int, default=50)
    parser.add_argument("--rate", type=float, default=400, help="location updates per second, all vehicles together")
    parser.add_argument("--duration", type=int, default=240, help="seconds of updates")
    parser.add_argument("--retention", default="30s", help="serve --event-retention")
    parser.add_argument("--navigate", action="store_true", help="give every vehicle a route with steps (navigator events)")
    parser.add_argument("--no-trips", action="store_true", help="vehicles without trips: one event per update")
    parser.add_argument("--sample", type=float, default=10, help="seconds between samples of the database size")
    parser.add_argument("--senders", type=int, default=8, help="threads sending updates")
    parser.add_argument("--port", type=int, default=20000 + random.randrange(20000))
    parser.add_argument("--readers", type=int, default=0, help="threads reading trips back-to-back during the run")
    parser.add_argument("--wal-limit-mb", type=float, help="fail if the WAL's peak is larger than this")
    parser.add_argument("--wal-sample", type=float, default=0.1, help="seconds between looks at the WAL's size")
    parser.add_argument("--server-log", help="keep the server's log here (its retention passes say what they took)")
    args = parser.parse_args()

    failed_verdict = False
    work = tempfile.mkdtemp(prefix="retention-soak-")
    database = os.path.join(work, "tripshare.sqlite")
    server = Server(args.binary, "--event-retention", args.retention, port=args.port, data_dir=work, work=work)
    try:
        admin = server.token(role="server", provider=PROVIDER)
        setup = Connection(args.port, admin)

        def must(method, path, body):
            status, payload = setup.call(method, path, body)
            if status != 200:
                sys.exit(f"{method} {path} answered {status}: {payload[:300].decode(errors='replace')}")
        routes = {}
        for i in range(args.vehicles):
            route, points = navroutes.east_route(origin(i), count=ROUTE_POINTS, spacing=50)
            routes[i] = route
            must("POST", f"/v1/providers/{PROVIDER}/vehicles?vehicleId=v{i}",
                       {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
                        "vehicleType": {"category": "AUTO"}})
            if not args.no_trips:
                must("POST", f"/v1/providers/{PROVIDER}/trips?tripId=t{i}",
                     {"tripType": "EXCLUSIVE", "vehicleId": f"v{i}",
                      "pickupPoint": {"point": {"latitude": points[-1][0], "longitude": points[-1][1]}}})
            if args.navigate:
                must("PUT", f"/v1/providers/{PROVIDER}/vehicles/v{i}/route", routes[i])
        print(f"{args.vehicles} vehicles{'' if args.no_trips else ' with a trip each'}{' and a route with steps' if args.navigate else ''}; "
              f"{args.rate:.0f} updates/s for {args.duration} s, retention {args.retention}", flush=True)

        # Update n goes to vehicle n % vehicles, due at start + n / rate; senders take the next
        # due update in turn, so the rate holds whatever one request takes (if the server
        # keeps up; the rate reached is reported).
        lap = (ROUTE_POINTS - 1) * 50 // STEP_METRES - 5
        counter = {"next": 0, "ok": 0, "failed": 0}
        lock = threading.Lock()
        start = time.monotonic()
        end = start + args.duration
        # The server's log is timed by the wall clock: this lines the samples up with it.
        print(f"updates start at {time.strftime('%H:%M:%S', time.gmtime())} UTC", flush=True)

        def sender():
            connection = Connection(args.port, admin)
            while True:
                with lock:
                    n = counter["next"]
                    counter["next"] += 1
                due = start + n / args.rate
                if due >= end or time.monotonic() >= end:
                    return
                delay = due - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                i, k = n % args.vehicles, n // args.vehicles
                step = k % lap
                if args.navigate and step == 0 and k:
                    connection.call("PUT", f"/v1/providers/{PROVIDER}/vehicles/v{i}/route", routes[i])
                lat, lng = origin(i)
                lng += step * STEP_METRES / navroutes.METRES_PER_DEGREE / math.cos(math.radians(lat))
                try:
                    status, payload = connection.call(
                        "PUT", f"/v1/providers/{PROVIDER}/vehicles/v{i}?updateMask=lastLocation",
                        {"lastLocation": {"location": {"latitude": lat, "longitude": lng}, "speed": 10.0, "heading": 90}})
                except (OSError, http.client.HTTPException) as error:
                    # Counted and reported, and the sender goes on: a soak outlives one bad connection.
                    status, payload = -1, f"connection error twice in a row: {error!r}".encode()
                    print(f"{time.monotonic() - start:8.0f} s: update of v{i} failed: {error!r}", flush=True)
                with lock:
                    counter["ok" if status == 200 else "failed"] += 1
                    if status != 200 and counter["failed"] == 1:
                        print(f"first failed update: {status} {payload[:300].decode(errors='replace')}", flush=True)

        def reader(number):
            connection = Connection(args.port, admin)
            n = number
            while time.monotonic() < end:
                n += 1
                try:
                    status, _ = connection.call("GET", f"/v1/providers/{PROVIDER}/trips/t{n % args.vehicles}", None)
                except (OSError, http.client.HTTPException):
                    status = -1
                with lock:
                    counter["reads" if status == 200 else "read failures"] += 1

        # The WAL's peak: a look at its size costs a stat, so it is looked at far more often
        # than the database is sampled (a peak between samples was missed before).
        wal_peak = {"bytes": 0, "at": 0.0, "looks": 0}

        def wal_watcher():
            while time.monotonic() < end:
                try:
                    size = os.path.getsize(database + "-wal")
                except OSError:
                    size = 0
                if size > wal_peak["bytes"]:
                    wal_peak.update(bytes=size, at=time.monotonic() - start)
                wal_peak["looks"] += 1
                time.sleep(args.wal_sample)

        counter["reads"] = counter["read failures"] = 0
        threads = [threading.Thread(target=sender, daemon=True) for _ in range(args.senders)]
        watcher = threading.Thread(target=wal_watcher, daemon=True)
        watcher.start()
        readers = [] if args.no_trips else [threading.Thread(target=reader, args=(k,), daemon=True) for k in range(args.readers)]
        for thread in threads + readers:
            thread.start()
        samples = []
        print(f"{'seconds':>8} {'updates':>9} {'file MB':>8} {'WAL MB':>7} {'live MB':>8} {'events':>9}", flush=True)
        while any(thread.is_alive() for thread in threads):
            time.sleep(args.sample)
            main_bytes, wal, live_pages, events = database_sample(database)
            with lock:
                sent = counter["ok"]
            sample = (time.monotonic() - start, sent, main_bytes, wal, live_pages * 4096, events)
            samples.append(sample)
            print(f"{sample[0]:8.0f} {sent:9d} {main_bytes / 1e6:8.1f} {wal / 1e6:7.1f} {sample[4] / 1e6:8.1f} {events:9d}",
                  flush=True)
        for thread in threads + readers:
            thread.join()
        elapsed = time.monotonic() - start
        print(f"sent {counter['ok']} updates ({counter['ok'] / elapsed:.0f}/s), {counter['failed']} failed", flush=True)
        if readers:
            print(f"read {counter['reads']} trips ({counter['reads'] / elapsed:.0f}/s), {counter['read failures']} failed",
                  flush=True)
        watcher.join()
        largest_wal = max([s[3] for s in samples] + [wal_peak["bytes"]])
        print(f"WAL peak {largest_wal / 1e6:.2f} MB ({largest_wal / 2**20:.2f} MiB; looked at {wal_peak['looks']} times, "
              f"every {args.wal_sample:g} s; the peak at {wal_peak['at']:.0f} s)", flush=True)
        if args.wal_limit_mb is not None:
            held = largest_wal <= args.wal_limit_mb * 1e6
            print(f"WAL at most {largest_wal / 1e6:.1f} MB: "
                  f"{'within' if held else 'OVER'} the limit of {args.wal_limit_mb:g} MB", flush=True)
            if not held:
                failed_verdict = True

        # The verdict is on the database file: the WAL beside it is reused after each
        # checkpoint and stays under its bound whatever the retention, so its size is
        # judged only with --wal-limit-mb.
        third = [s for s in samples if s[0] >= samples[-1][0] * 2 / 3] if samples else []
        if len(samples) >= 3 and third:
            first, last = third[0], samples[-1]
            growth = last[2] / max(1, first[2]) - 1
            print(f"over the last third ({last[1] - first[1]} updates): the database file went from {first[2] / 1e6:.1f} "
                  f"to {last[2] / 1e6:.1f} MB ({growth * 100:+.1f}%), live data {first[4] / 1e6:.1f} -> {last[4] / 1e6:.1f} MB, "
                  f"WAL at most {largest_wal / 1e6:.1f} MB -> {'levelled off' if growth < 0.05 else 'still growing'}",
                  flush=True)
            if samples[0][1] < samples[-1][1]:
                rate = (samples[-1][4] - samples[0][4]) / (samples[-1][1] - samples[0][1]) * 1e4
                print(f"live data per 10,000 updates over the whole run: {rate / 1e6:.2f} MB "
                      f"(without retention, --retention 3650d, this is what the log grows by)", flush=True)
    finally:
        server.stop(60)
        if args.server_log:
            shutil.copyfile(os.path.join(work, "server.log"), args.server_log)
        shutil.rmtree(work, ignore_errors=True)
    if failed_verdict:
        sys.exit(1)


if __name__ == "__main__":
    main()
