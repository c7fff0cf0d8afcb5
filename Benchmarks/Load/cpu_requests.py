"""Sends requests for cpu-per-request: N of one kind to each server given, alternating
between the servers request by request, each on its own keep-alive connection. `put` moves
the seeded vehicles along their routes (as wrk_put_vehicle.lua does), `get` reads their trips
with the riders' tokens (as wrk_get_trip.lua does); ROUND shifts the positions, so every
round moves the vehicles somewhere new, and goes on through the fleet where the last round
stopped.
Usage: cpu_requests.py put|get N ROUND BASE_URL DATA_DIR [BASE_URL DATA_DIR ...]"""
import http.client, json, math, sys, urllib.parse

kind, n, round_ = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
servers = []
for base, data in zip(sys.argv[4::2], sys.argv[5::2]):
    host = urllib.parse.urlparse(base)
    servers.append({
        "connection": http.client.HTTPConnection(host.hostname, host.port, timeout=60),
        "token": open(f"{data}/server-token.txt").read().strip(),
        "riders": [line.split() for line in open(f"{data}/consumer-tokens.txt")],
    })
for k in range(n):
    for server in servers:
        connection, riders = server["connection"], server["riders"]
        # Each round goes on through the fleet where the last stopped: a fleet larger than N is
        # met whole over the rounds, not only its first N.
        j = k + round_ * n
        i = j % len(riders)
        if kind == "put":
            step = (1 + j // len(riders) + round_ * 37) % 499
            lat = 37.3 + (i % 100) * 0.002 + step * 0.00002
            lng = -122.1 + (i // 100) * 0.002 + 0.00001 * math.sin(step / 7)
            body = json.dumps({"lastLocation": {"location": {"latitude": lat, "longitude": lng}}})
            connection.request("PUT", f"/v1/providers/load/vehicles/v{i}?updateMask=lastLocation", body,
                               {"Authorization": "Bearer " + server["token"], "Content-Type": "application/json"})
        else:
            trip, token = riders[i]
            connection.request("GET", f"/v1/providers/load/trips/{trip}?view=JOURNEY_SHARING_V1S",
                               headers={"Authorization": "Bearer " + token})
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"{kind} {k}: HTTP {response.status}")
