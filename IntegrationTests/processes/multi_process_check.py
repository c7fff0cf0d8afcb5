#!/usr/bin/env python3
"""Several serve processes on one PostgreSQL database (issue 16), checked end to end.

Run by IntegrationTests/processes/multi-process-test, which starts the database:
  multi_process_check.py BINARY DATABASE_URL CLUSTER_DIR

0. Two servers, A and B, start at once on the empty database (one applies the migrations, the
   other waits), neither with a key of its own: they share the one kept in the database.

1. Vehicle and trip created through A; the rider's event stream opened on B; location
   updates sent through A and B alternately. Every update's event reaches B's stream; the
   time from A's answer to B's delivery is the fan-out latency (p50/p99 printed).
2. B's stream is dropped half-way and resumed on A with Last-Event-ID: together the two
   streams hold every event of the trip once, in order (compared with a full replay).
3. The database is stopped under the running servers: writes answer 503 UNAVAILABLE and
   /readyz fails; it is started again: both recover without a restart.
"""
import atexit
import concurrent.futures
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402 (IntegrationTests/harness.py, found through the path above)
from harness import check  # noqa: E402

binary, database, cluster = sys.argv[1], sys.argv[2], sys.argv[3]
# The fan-out bound: 100 ms on a quiet machine; IntegrationTests/run --loaded passes 1,000 (a debug
# build beside other work was seen at 120 ms). Either still fails a fan-out that waits for the
# 15 s poll instead of LISTEN/NOTIFY.
P99_LIMIT_MS = float(sys.argv[sys.argv.index("--p99-limit") + 1]) if "--p99-limit" in sys.argv else 100.0
PROVIDER, VEHICLE, TRIP = "mp", "car-1", "trip-1"


def serve(name):
    server = harness.Server(binary, "--database", database, env={"TRIPSHARE_JWT_SECRET": None, "TRIPSHARE_JWKS": None},
                            name=name)
    atexit.register(server.stop)
    return server


with concurrent.futures.ThreadPoolExecutor(2) as starting:
    server_a, server_b = starting.map(serve, ("a", "b"))
port_a, port_b = server_a.port, server_b.port
print(f"A on {port_a}, B on {port_b}", flush=True)


def call(port, method, path, token_, body=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Authorization": "Bearer " + token_}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def location(seq):
    # The sequence number rides in the latitude, as in IntegrationTests/processes/crash-test.
    return {"lastLocation": {"location": {"latitude": 37.40 + seq * 1e-5, "longitude": -122.05}}}


def seq_of(event):
    return round((json.loads(event["data"])["location"]["latitude"] - 37.40) * 1e5)


class Stream(threading.Thread):
    """A rider's SSE stream: records each event with the time it arrived."""

    def __init__(self, port, token_, last_event_id=None):
        super().__init__(daemon=True)
        self.port, self.token, self.last_event_id = port, token_, last_event_id
        self.events, self.lock, self.stop = [], threading.Lock(), threading.Event()
        self.connected = threading.Event()

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Authorization": "Bearer " + self.token, "Accept": "text/event-stream"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = str(self.last_event_id)
        connection.request("GET", f"/v1/providers/{PROVIDER}/trips/{TRIP}/events", headers=headers)
        response = connection.getresponse()
        self.connected.set()
        frame = {}
        while not self.stop.is_set():
            line = response.fp.readline()
            if not line:
                break
            line = line.decode().rstrip("\n")
            if line == "":
                if "id" in frame:
                    frame["at"] = time.monotonic()
                    with self.lock:
                        self.events.append(frame)
                frame = {}
            elif line.startswith("id: "):
                frame["id"] = int(line[4:])
            elif line.startswith("event: "):
                frame["type"] = line[7:]
            elif line.startswith("data: "):
                frame["data"] = frame.get("data", "") + line[6:]
        connection.close()

    def snapshot(self):
        with self.lock:
            return list(self.events)

    def wait_for(self, predicate, seconds=20):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if predicate(self.snapshot()):
                return True
            time.sleep(0.005)
        return False


server = server_a.token(role="server", provider="*")
rider = server_b.token(role="consumer", provider=PROVIDER, trip=TRIP)

# 1. Create through A, listen on B, write through both.
status, _ = call(port_a, "POST", f"/v1/providers/{PROVIDER}/vehicles?vehicleId={VEHICLE}", server,
                 {"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
                  "vehicleType": {"category": "AUTO"}, **location(0)})
check(status == 200, f"vehicle created through A ({status})")
status, _ = call(port_a, "POST", f"/v1/providers/{PROVIDER}/trips?tripId={TRIP}", server,
                 {"tripType": "EXCLUSIVE", "vehicleId": VEHICLE,
                  "pickupPoint": {"point": {"latitude": 37.41, "longitude": -122.05}},
                  "dropoffPoint": {"point": {"latitude": 37.45, "longitude": -122.05}}})
check(status == 200, f"trip created through A ({status})")
status, body = call(port_b, "GET", f"/v1/providers/{PROVIDER}/trips/{TRIP}", rider)
check(status == 200, f"B answers the rider's read of a trip created through A, with a token minted from the shared key ({status})")

on_b = Stream(port_b, rider)
on_b.start()
on_b.connected.wait(10)
time.sleep(0.3)
updates = 80
acked_at = {}
for seq in range(1, updates + 1):
    port = port_a if seq % 2 else port_b
    status, _ = call(port, "PUT", f"/v1/providers/{PROVIDER}/vehicles/{VEHICLE}?updateMask=lastLocation", server, location(seq))
    if status == 200:
        acked_at[seq] = (time.monotonic(), port)
    if seq == updates // 2:
        # Wait until B has delivered the first half, then drop its stream.
        on_b.wait_for(lambda events: any(e.get("type") == "didUpdateVehicleLocation" and seq_of(e) == seq for e in events))
        on_b.stop.set()
    time.sleep(0.02)
check(len(acked_at) == updates, f"{len(acked_at)} of {updates} updates acknowledged, through A and B alternately")

first_half = [e for e in on_b.snapshot()]
latencies = []
for event in first_half:
    if event.get("type") == "didUpdateVehicleLocation":
        seq = seq_of(event)
        if seq in acked_at and acked_at[seq][1] == port_a:
            latencies.append((event["at"] - acked_at[seq][0]) * 1000)
if latencies:
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"fan-out A -> B (write answered by A until B's stream delivers it), {len(latencies)} events: "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms")
    check(p99 < P99_LIMIT_MS, f"B's rider sees events written through A within {P99_LIMIT_MS:.0f} ms (p99)")
else:
    check(False, "B's stream delivered no event written through A")

# 2. Resume on A from the last event B delivered.
last_id = first_half[-1]["id"]
on_a = Stream(port_a, rider, last_event_id=last_id)
on_a.start()
reference = Stream(port_a, rider, last_event_id=0)
reference.start()
final_seq = max(acked_at)
for stream in (on_a, reference):
    stream.wait_for(lambda events: any(e.get("type") == "didUpdateVehicleLocation" and seq_of(e) == final_seq for e in events))
on_a.stop.set()
reference.stop.set()
everything = [e["id"] for e in reference.snapshot()]
resumed = [e["id"] for e in first_half] + [e["id"] for e in on_a.snapshot()]
# A stream's event IDs are its own and unordered (docs/operations.md): here each event once; the
# order is checked on the location events below.
check(len(everything) == len(set(everything)), f"the full replay holds {len(everything)} events, each once")
# B's stream began with the events after it connected: from there on the two hold the log.
since_b = everything[everything.index(resumed[0]):] if resumed and resumed[0] in everything else []
if resumed != since_b:
    print(f"      B then A: {resumed[:3]}...{resumed[-3:]} ({len(resumed)}); the log since: {since_b[:3]}...{since_b[-3:]} ({len(since_b)})")
check(resumed == since_b and len(resumed) >= updates,
      f"B's stream then A's resumed one (Last-Event-ID {last_id}) hold the same {len(resumed)} events as the log since B's "
      "stream began: none lost, none repeated")
seen = [seq_of(e) for e in reference.snapshot() if e.get("type") == "didUpdateVehicleLocation"]
check(seen == list(range(1, updates + 1)), "every update's location event is in the log, in the order the updates were answered")

# 3. The database goes away under the running servers, and comes back.
subprocess.run(["scripts/postgres", "stop", cluster], check=True)
status, body = call(port_a, "PUT", f"/v1/providers/{PROVIDER}/vehicles/{VEHICLE}?updateMask=lastLocation", server, location(999))
message = json.loads(body or b"{}").get("error", {})
check(status == 503 and message.get("status") == "UNAVAILABLE", f"with the database stopped, a write answers 503 UNAVAILABLE ({status}: {message.get('message', '')[:90]})")
status, _ = call(port_b, "GET", "/readyz", server)
check(status == 503, f"with the database stopped, /readyz fails ({status})")
stopped_at = time.monotonic()
subprocess.run(["scripts/postgres", "restart", cluster], check=True, stdout=subprocess.DEVNULL)
recovered = {}
while time.monotonic() - stopped_at < 30 and len(recovered) < 2:
    for name, port in (("A", port_a), ("B", port_b)):
        if name not in recovered and call(port, "GET", "/readyz", server)[0] == 200:
            recovered[name] = time.monotonic()
    time.sleep(0.1)
check(len(recovered) == 2, "both servers are ready again after the database restarts, without being restarted")
status, _ = call(port_b, "PUT", f"/v1/providers/{PROVIDER}/vehicles/{VEHICLE}?updateMask=lastLocation", server, location(1000))
check(status == 200, f"writes succeed again ({status})")

harness.finish("multi-process test")
