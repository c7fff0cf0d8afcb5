"""Small route and trace builders for the navigation scripts (navigate_check.py, the load
tests, the browser test): Google polyline encoding and decoding, and straight test routes in the NavRoute JSON format of
DESIGN §8 (what PUT .../vehicles/{id}/route takes and `tripshare import` writes)."""
import math

EARTH_RADIUS = 6_371_008.8
METRES_PER_DEGREE = EARTH_RADIUS * math.pi / 180


def encode_polyline(points, precision=5):
    """Google's encoded polyline of [(lat, lng), ...]."""
    factor = 10 ** precision
    out = []
    last_lat = last_lng = 0
    for lat, lng in points:
        ilat, ilng = round(lat * factor), round(lng * factor)
        for delta in (ilat - last_lat, ilng - last_lng):
            value = ~(delta << 1) if delta < 0 else delta << 1
            while value >= 0x20:
                out.append(chr((0x20 | (value & 0x1F)) + 63))
                value >>= 5
            out.append(chr(value + 63))
        last_lat, last_lng = ilat, ilng
    return "".join(out)


def decode_polyline(text, precision=5):
    """[(lat, lng), ...] of a Google encoded polyline."""
    factor = 10 ** precision
    points, index, lat, lng = [], 0, 0, 0
    while index < len(text):
        deltas = []
        for _ in range(2):
            shift = result = 0
            while True:
                byte = ord(text[index]) - 63
                index += 1
                result |= (byte & 0x1F) << shift
                shift += 5
                if byte < 0x20:
                    break
            deltas.append(~(result >> 1) if result & 1 else result >> 1)
        lat += deltas[0]
        lng += deltas[1]
        points.append((lat / factor, lng / factor))
    return points


def on_grid(lat, lng, precision=5):
    """A point rounded to the polyline grid, as the route will decode it."""
    factor = 10 ** precision
    return round(lat * factor) / factor, round(lng * factor) / factor


def north(point, metres):
    return point[0] + metres / METRES_PER_DEGREE, point[1]


def east_points(origin, count, spacing):
    """`count` points `spacing` metres apart heading east from `origin`, on the polyline grid."""
    d_lng = spacing / METRES_PER_DEGREE / math.cos(math.radians(origin[0]))
    return [on_grid(origin[0], origin[1] + i * d_lng) for i in range(count)]


def east_route(origin, count=61, spacing=50.0, speed=10.0, step_every=10):
    """A straight route east from `origin` (lat, lng): `count` points `spacing` metres apart.
    Returns (route JSON, points); see route_through."""
    points = east_points(origin, count, spacing)
    return route_through(points, speed, step_every), points


def route_through(points, speed=10.0, step_every=10):
    """A route along `points` (on the polyline grid) driven at `speed` m/s, with a right
    turn every `step_every` points and the destination at the last point."""
    count = len(points)
    ends = [0] + list(range(step_every, count - 1, step_every)) + [count - 1]
    steps = []
    for k, end in enumerate(ends):
        steps.append({
            "stepNumber": k,
            "maneuver": "depart" if k == 0 else ("destination" if end == count - 1 else "turnRight"),
            "simpleRoadName": f"Street {k}",
            "fullInstructionText": "Head out" if k == 0 else ("Arrive" if end == count - 1 else f"Turn right onto Street {k}"),
            "polylineStartIndex": 0 if k == 0 else ends[k - 1],
            "polylineEndIndex": end,
        })
    lengths = [haversine(points[i - 1], points[i]) for i in range(1, count)]
    return {
        "encodedPolyline": encode_polyline(points),
        "steps": steps,
        "segmentDurationsSeconds": [length / speed for length in lengths],
        "destinations": [{"location": {"latitude": points[-1][0], "longitude": points[-1][1]},
                          "polylinePointIndex": count - 1}],
        "drivingSide": "RIGHT",
    }


def haversine(a, b):
    phi1, phi2 = math.radians(a[0]), math.radians(b[0])
    dphi = phi2 - phi1
    dlam = math.radians(b[1] - a[1])
    h = math.sin(dphi / 2) ** 2 + math.cos(phi1) * math.cos(phi2) * math.sin(dlam / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1, math.sqrt(h)))


def along(points, metres):
    """The point `metres` along a polyline (clamped), linearly interpolated."""
    for i in range(1, len(points)):
        length = haversine(points[i - 1], points[i])
        if metres <= length:
            f = metres / length if length else 0
            a, b = points[i - 1], points[i]
            return a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])
        metres -= length
    return points[-1]
