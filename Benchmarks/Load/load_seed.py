"""Seeds a tripshare server for load tests: N vehicles, each with a route segment of POINTS
points (default 500, about 2 m apart) and a location on it, and N trips assigned one per
vehicle, picked up at the route's end. Writes a server token and one consumer token per trip
(HS256 with the server's secret file) next to the data.
Usage: load_seed.py BASE_URL SECRET_FILE OUT_DIR N [POINTS]
       load_seed.py --tokens SECRET_FILE OUT_DIR N   (only the tokens, anew: they live an hour)"""
import concurrent.futures, json, math, os, sys, time, urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
import tokens  # noqa: E402

base, secret_file, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
points = int(sys.argv[5]) if len(sys.argv) > 5 else 500
secret = open(secret_file).read().strip().encode()

def token(claims):
    return tokens.mint(secret, claims)

def write_tokens():
    """The server token and a consumer token per trip, in OUT_DIR; returns the server token."""
    server = token({"role": "server", "authorization": {"provider": "load"}})
    open(f"{out}/server-token.txt", "w").write(server + "\n")
    with open(f"{out}/consumer-tokens.txt", "w") as f:
        for i in range(n): f.write(f"t{i} {token({'role': 'consumer', 'authorization': {'provider': 'load', 'tripid': f't{i}'}})}\n")
    return server

if base == "--tokens":
    write_tokens()
    sys.exit(0)


def encode_polyline(points):
    out, plat, plng = [], 0, 0
    for lat, lng in points:
        for value, prev in ((round(lat * 1e5), plat), (round(lng * 1e5), plng)):
            v = value - prev
            v = ~(v << 1) if v < 0 else v << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1f)) + 63)); v >>= 5
            out.append(chr(v + 63))
        plat, plng = round(lat * 1e5), round(lng * 1e5)
    return "".join(out)

server = write_tokens()

def call(method, path, body):
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), method=method,
                                 headers={"Authorization": "Bearer " + server})
    with urllib.request.urlopen(req, timeout=30) as r: r.read()

def seed(i):
    lat0, lng0 = 37.3 + (i % 100) * 0.002, -122.1 + (i // 100) * 0.002
    route = [(lat0 + k * 0.00002, lng0 + 0.00001 * math.sin(k / 7)) for k in range(points)]
    call("POST", f"/v1/providers/load/vehicles?vehicleId=v{i}", {
        "vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"},
        "currentRouteSegment": encode_polyline(route),
        "lastLocation": {"location": {"latitude": route[0][0], "longitude": route[0][1]}}})
    call("POST", f"/v1/providers/load/trips?tripId=t{i}", {
        "tripType": "EXCLUSIVE", "vehicleId": f"v{i}",
        "pickupPoint": {"point": {"latitude": route[-1][0], "longitude": route[-1][1]}},
        "dropoffPoint": {"point": {"latitude": route[-1][0] + 0.01, "longitude": route[-1][1]}}})

start = time.time()
with concurrent.futures.ThreadPoolExecutor(16) as pool:
    list(pool.map(seed, range(n)))
print(f"seeded {n} vehicles and {n} trips in {time.time() - start:.1f} s")
