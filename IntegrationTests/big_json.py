#!/usr/bin/env python3
"""Linear JSON (issue 29, item 2): a driver's `PUT vehicle` whose body is one object of 160,000
distinct members (1.28 MB, under the body limit) is answered 400 INVALID_ARGUMENT in under
--limit ms; so is one of 10,000 unknown members (within the member limit, refused by the
decoder); and twenty such bodies at once leave `/healthz` answering within --limit ms (the best
of up to three rounds).

    IntegrationTests/big_json.py BINARY [--limit 100]
"""
import argparse
import json
import threading
import time

import harness
from harness import check

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--limit", type=float, default=100, help="ms for an answer, and for /healthz during the burst")
args = parser.parse_args()

server = harness.Server(args.binary, "--rate-limit", "0", name="big-json")
admin = server.token("--role", "server", "--provider", "p")
status, _ = harness.call(server.port, "POST", "/v1/providers/p/vehicles?vehicleId=v1", token=admin,
                         body={"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
                               "vehicleType": {"category": "AUTO"}})
check(status == 200, f"vehicle created ({status})")
driver = server.token("--role", "driver", "--provider", "p", "--vehicle", "v1")
path = "/v1/providers/p/vehicles/v1?updateMask=lastLocation"


def members(count):
    return ("{" + ",".join(f'"m{index:06d}":0' for index in range(count)) + "}").encode()


for count, what in ((160_000, "over the member limit"), (10_000, "unknown members within the limit")):
    body = members(count)
    timings, answers = [], []
    for _ in range(5):
        started = time.monotonic()
        status, answer = harness.call(server.port, "PUT", path, body=body, token=driver, timeout=30)
        timings.append((time.monotonic() - started) * 1000)
        answers.append((status, json.loads(answer)))
    status, answer = answers[-1]
    check(all(s == 400 and a["error"]["status"] == "INVALID_ARGUMENT" for s, a in answers),
          f"{count:,} members ({len(body) / 1e6:.2f} MB, {what}): 400 INVALID_ARGUMENT: {answer['error']['message'][:110]}")
    check(min(timings) < args.limit, f"  answered in {min(timings):.0f} ms at best, {max(timings):.0f} ms at worst (limit {args.limit:g} ms)")

# Twenty at once while a probe asks /healthz every 10 ms. The bodies are parsed off the event
# loops, so the probe waits only for a core (docs/limits.md). On a loaded two-core machine one
# round can meet a stall of the machine's own; the best of three rounds must pass.
body = members(160_000)


def burst():
    stop, probes = threading.Event(), []

    def probe():
        while not stop.is_set():
            started = time.monotonic()
            status, _ = harness.get(server.port, "/healthz", timeout=5)
            probes.append((time.monotonic() - started) * 1000 if status == 200 else float("inf"))
            time.sleep(0.01)

    prober = threading.Thread(target=probe)
    prober.start()
    senders = [threading.Thread(target=harness.call, args=(server.port, "PUT", path),
                                kwargs={"body": body, "token": driver, "timeout": 60}) for _ in range(20)]
    started = time.monotonic()
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    elapsed = time.monotonic() - started
    stop.set()
    prober.join()
    return elapsed, probes


rounds = []
for _ in range(3):
    rounds.append(burst())
    if max(rounds[-1][1]) < args.limit:
        break
elapsed, probes = min(rounds, key=lambda r: max(r[1]))
check(max(probes) < args.limit, f"twenty 160,000-member bodies at once took {elapsed:.2f} s; /healthz meanwhile at most {max(probes):.0f} ms "
      f"({len(probes)} probes; best of {len(rounds)} rounds, worst {max(max(r[1]) for r in rounds):.0f} ms)")
check(server.stop() == 0, "the server stopped cleanly")
harness.finish("big JSON")
