#!/usr/bin/env python3
"""The server on glibc's malloc and on a preloaded tcmalloc, as docs/operations.md ("The
allocator") tells an operator to run it:
  allocator_check.py BINARY [TCMALLOC_LIBRARY]

1. Without a preload the server says it runs on glibc's malloc.
2. With tcmalloc preloaded it says so, and a vehicle is created and its location updated on it
   before and after the server's first return of free memory to the system (every 10 s, with
   tcmalloc's own call there): each answer holds the location sent.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import harness  # noqa: E402 (IntegrationTests/harness.py, found through the path above)
from harness import call, check  # noqa: E402

binary = sys.argv[1]
library = sys.argv[2] if len(sys.argv) > 2 else "/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4"
PROVIDER, VEHICLE = "alloc", "v1"


def allocator_line(server):
    return server.printed(r"(?m)^Allocator: (.*)$", seconds=10)


def location(latitude):
    return {"lastLocation": {"location": {"latitude": latitude, "longitude": -122.05}}}


def updated_to(server, token, latitude):
    status, body = call(server.port, "PUT", f"/v1/providers/{PROVIDER}/vehicles/{VEHICLE}?updateMask=lastLocation",
                        body=location(latitude), token=token)
    answered = json.loads(body).get("lastLocation", {}).get("location", {}).get("latitude") if status == 200 else None
    return status, answered


# 1. glibc's own (a preload the caller's environment holds is left out).
plain = harness.Server(binary, env={"LD_PRELOAD": None})
try:
    line = allocator_line(plain)
    check(line is not None and line.startswith("glibc's malloc"), f"without a preload: Allocator: {line}")
finally:
    plain.stop()

# 2. tcmalloc preloaded.
check(os.path.exists(library), f"{library} is installed (Debian: libtcmalloc-minimal4)")
preloaded = harness.Server(binary, env={"LD_PRELOAD": library})
try:
    line = allocator_line(preloaded)
    check(line == "tcmalloc, preloaded.", f"with {os.path.basename(library)} preloaded: Allocator: {line}")
    token = preloaded.token(role="server", provider=PROVIDER)
    status, _ = call(preloaded.port, "POST", f"/v1/providers/{PROVIDER}/vehicles?vehicleId={VEHICLE}", token=token,
                     body={"vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4,
                           "vehicleType": {"category": "AUTO"}, **location(37.40)})
    check(status == 200, f"vehicle created on tcmalloc ({status})")
    status, answered = updated_to(preloaded, token, 37.41)
    check(status == 200 and answered == 37.41, f"location updated on tcmalloc ({status}, latitude {answered})")
    # The server returns free memory every 10 s: wait past the first time it does.
    time.sleep(11)
    status, answered = updated_to(preloaded, token, 37.42)
    check(preloaded.alive() and status == 200 and answered == 37.42,
          f"after its first return of free memory, still answering ({status}, latitude {answered})")
finally:
    preloaded.stop()

harness.finish("allocator_check")
