#!/usr/bin/env python3
"""Writes the hand-made edge-case fixtures of Tests/Fixtures (scenario.json only).

Each scenario is a short drive on a made-up street grid in Mountain View, written as the
REST calls a driver app and a provider backend would make. Record or refresh the goldens
afterwards with `tripshare fixtures run Tests/Fixtures/NAME --update`, and look at every
image before committing it.

Usage: scripts/generate/edge_fixtures.py [OUT_DIR]   (default Tests/Fixtures)
"""
import json
import math
import os
import sys
from datetime import datetime, timedelta, timezone

START = datetime(2025, 3, 14, 8, 0, 0, tzinfo=timezone.utc)
PROVIDER = "demo"
# A drive along streets of a made-up grid: east, then north, then east again.
STREET = [(37.3900, -122.0800), (37.3900, -122.0740), (37.3900, -122.0680), (37.3950, -122.0680),
          (37.4000, -122.0680), (37.4000, -122.0620), (37.4000, -122.0560)]
# A detour that leaves the street at its third point (for the reroute scenario).
DETOUR = [(37.3900, -122.0680), (37.3860, -122.0680), (37.3860, -122.0620), (37.4000, -122.0620)]


def stamp(seconds):
    t = START + timedelta(seconds=seconds)
    text = t.strftime("%Y-%m-%dT%H:%M:%S")
    micros = t.microsecond
    return text + (".%03d" % (micros // 1000) if micros else "") + "Z"


def encode(points):
    """Google encoded polyline, precision 5."""
    out, last = [], (0, 0)
    for lat, lng in points:
        cur = (round(lat * 1e5), round(lng * 1e5))
        for d in (cur[0] - last[0], cur[1] - last[1]):
            v = ~(d << 1) if d < 0 else d << 1
            while v >= 0x20:
                out.append(chr((0x20 | (v & 0x1F)) + 63))
                v >>= 5
            out.append(chr(v + 63))
        last = cur
    return "".join(out)


def meters(a, b):
    dlat = math.radians(b[0] - a[0])
    dlng = math.radians(b[1] - a[1]) * math.cos(math.radians((a[0] + b[0]) / 2))
    return 6371008.8 * math.hypot(dlat, dlng)


def along(path, distance):
    """The point `distance` metres along `path`, and the heading there."""
    for a, b in zip(path, path[1:]):
        length = meters(a, b)
        if distance <= length:
            f = distance / length if length else 0
            heading = math.degrees(math.atan2((b[1] - a[1]) * math.cos(math.radians(a[0])), b[0] - a[0])) % 360
            return (round(a[0] + f * (b[0] - a[0]), 7), round(a[1] + f * (b[1] - a[1]), 7)), round(heading)
        distance -= length
    return path[-1], 0


def sub(path, start_m, end_m):
    """The part of `path` from `start_m` to `end_m` metres along it."""
    points, walked = [along(path, start_m)[0]], 0.0
    for a, b in zip(path, path[1:]):
        walked += meters(a, b)
        if start_m < walked < end_m:
            points.append(b)
    points.append(along(path, end_m)[0])
    return points


def length(path):
    return sum(meters(a, b) for a, b in zip(path, path[1:]))


def point(p):
    return {"point": {"latitude": p[0], "longitude": p[1]}}


def latlng(p):
    return {"latitude": p[0], "longitude": p[1]}


class Scene:
    def __init__(self, name, description):
        self.s = {"format": 1, "name": name, "description": description,
                  "source": "hand-made (scripts/generate/edge_fixtures.py)", "provider": PROVIDER,
                  "vehicles": {}, "trips": {}, "timeline": [], "checkpoints": []}

    def call(self, t, op, id, **fields):
        entry = {"at": stamp(t), "op": op, "id": id}
        entry.update(fields)
        self.s["timeline"].append(entry)

    def vehicle(self, t, id, at, types=("EXCLUSIVE",)):
        self.s["vehicles"][id] = {"vehicleState": "ONLINE", "supportedTripTypes": list(types), "maximumCapacity": 4,
                                  "vehicleType": {"category": "AUTO"},
                                  "lastLocation": {"location": latlng(at), "updateTime": stamp(t)}}
        self.call(t, "createVehicle", id)

    def trip(self, t, id, vehicle, pickup, dropoff, stops=(), trip_type="EXCLUSIVE", passengers=1):
        body = {"tripType": trip_type, "vehicleId": vehicle, "numberOfPassengers": passengers,
                "pickupPoint": point(pickup), "dropoffPoint": point(dropoff)}
        if stops:
            body["intermediateDestinations"] = [point(p) for p in stops]
        self.s["trips"][id] = body
        self.call(t, "createTrip", id)

    def status(self, t, trip, status, **extra):
        body = {"tripStatus": status}
        mask = ["tripStatus"]
        for key, value in extra.items():
            body[key] = value
            mask.append(key)
        self.call(t, "updateTrip", trip, updateMask=",".join(mask), body=body)

    def route(self, t, vehicle, path):
        self.call(t, "updateVehicle", vehicle, updateMask="currentRouteSegment",
                  body={"currentRouteSegment": encode(path)})

    def drive(self, t0, vehicle, path, start_m, end_m, speed=10.0, every=10, route=True):
        """Location updates every `every` seconds from `start_m` to `end_m` metres along `path`."""
        t, d = t0, start_m
        while True:
            p, heading = along(path, d)
            body = {"lastLocation": {"location": latlng(p), "heading": heading, "speed": speed, "updateTime": stamp(t)}}
            self.call(t, "updateVehicle", vehicle, updateMask="lastLocation", body=body)
            if d >= end_m:
                return t
            t += every
            d = min(end_m, d + speed * every)

    def checkpoint(self, t, name, trip=None, vehicle=None, render=None, events=None, nav=None):
        c = {"name": name, "at": stamp(t)}
        if trip:
            c["trip"] = trip
        if vehicle:
            c["vehicle"] = vehicle
        if nav:
            c["navInfo"] = nav
        if events:
            c["events"] = events
        if render is not None:
            c["render"] = render
        self.s["checkpoints"].append(c)

    def write(self, out):
        folder = os.path.join(out, self.s["name"])
        os.makedirs(folder, exist_ok=True)
        self.s["timeline"].sort(key=lambda e: e["at"])
        # The layout `tripshare import` writes: sorted keys, one call or checkpoint per line.
        head = {k: v for k, v in self.s.items() if k not in ("timeline", "checkpoints")}
        lines = ["{"]
        for key in sorted(head):
            text = json.dumps(head[key], indent=2, sort_keys=True, ensure_ascii=False).replace("\n", "\n  ")
            lines.append(f'  "{key}": {text},')
        for key in ("timeline", "checkpoints"):
            items = [json.dumps(item, separators=(",", ":"), ensure_ascii=False) for item in self.s[key]]
            lines.append(f'  "{key}": [\n    ' + ",\n    ".join(items) + "\n  ]" + ("," if key == "timeline" else ""))
        lines.append("}")
        with open(os.path.join(folder, "scenario.json"), "w") as f:
            f.write("\n".join(lines) + "\n")


TRIP_EVENTS = ["didUpdateTripStatus", "didUpdateRemainingWaypoints"]


def basic_trip(name, description, render=None):
    """One rider: picked up 600 m along the street, dropped at its end."""
    s = Scene(name, description)
    total = length(STREET)
    pickup, _ = along(STREET, 600)
    s.vehicle(0, "car-1", STREET[0])
    s.trip(1, "trip-1", "car-1", pickup, STREET[-1])
    # The driver app sends the route to the next stop only, as Fleet Engine's Driver SDK does.
    s.route(2, "car-1", sub(STREET, 0, 600))
    s.status(3, "trip-1", "ENROUTE_TO_PICKUP")
    t = s.drive(4, "car-1", STREET, 0, 300)
    s.checkpoint(t, "enroute", trip="trip-1", render=render or {"trip": "trip-1"})
    t = s.drive(t + 10, "car-1", STREET, 310, 600)
    s.status(t + 1, "trip-1", "ARRIVED_AT_PICKUP")
    s.route(t + 29, "car-1", sub(STREET, 600, total))
    s.status(t + 30, "trip-1", "ENROUTE_TO_DROPOFF")
    t = s.drive(t + 31, "car-1", STREET, 600, 1500)
    s.checkpoint(t, "to-dropoff", trip="trip-1", render=render or {"trip": "trip-1"},
                 events={"vehicle": "car-1", "types": TRIP_EVENTS})
    t = s.drive(t + 10, "car-1", STREET, 1510, total)
    s.status(t + 1, "trip-1", "COMPLETE")
    s.checkpoint(t + 2, "complete", trip="trip-1", vehicle="car-1", events={"vehicle": "car-1", "types": TRIP_EVENTS})
    return s


def shared_ride():
    s = Scene("shared-ride", "Two riders share car-1: A is picked up first, B second; A is dropped off before B. "
              "Each rider sees the other's stops only by their type, on one unbroken path to its own next stop.")
    total = length(STREET)
    pa, _ = along(STREET, 400)
    pb, _ = along(STREET, 1000)
    da, _ = along(STREET, 1800)
    s.vehicle(0, "car-1", STREET[0], types=("SHARED", "EXCLUSIVE"))
    s.trip(1, "trip-a", "car-1", pa, da, trip_type="SHARED")
    s.trip(2, "trip-b", "car-1", pb, STREET[-1], trip_type="SHARED", passengers=2)
    s.call(3, "updateVehicle", "car-1", updateMask="waypoints", body={"waypoints": [
        {"tripId": "trip-a", "waypointType": "PICKUP_WAYPOINT_TYPE", "location": point(pa)},
        {"tripId": "trip-b", "waypointType": "PICKUP_WAYPOINT_TYPE", "location": point(pb)},
        {"tripId": "trip-a", "waypointType": "DROP_OFF_WAYPOINT_TYPE", "location": point(da)},
        {"tripId": "trip-b", "waypointType": "DROP_OFF_WAYPOINT_TYPE", "location": point(STREET[-1])}]})
    s.route(4, "car-1", STREET)
    s.status(5, "trip-a", "ENROUTE_TO_PICKUP")
    s.status(5, "trip-b", "ENROUTE_TO_PICKUP")
    t = s.drive(6, "car-1", STREET, 0, 200)
    s.checkpoint(t, "both-waiting", trip="trip-b", vehicle="car-1", render={"trip": "trip-b"})
    t = s.drive(t + 10, "car-1", STREET, 210, 400)
    s.status(t + 1, "trip-a", "ARRIVED_AT_PICKUP")
    s.status(t + 20, "trip-a", "ENROUTE_TO_DROPOFF")
    t = s.drive(t + 21, "car-1", STREET, 400, 1000)
    s.status(t + 1, "trip-b", "ARRIVED_AT_PICKUP")
    s.status(t + 20, "trip-b", "ENROUTE_TO_DROPOFF")
    s.checkpoint(t + 21, "both-aboard", trip="trip-a", render={"trip": "trip-a"})
    t = s.drive(t + 22, "car-1", STREET, 1000, 1800)
    s.status(t + 1, "trip-a", "COMPLETE")
    s.checkpoint(t + 2, "a-dropped", trip="trip-b", render={"trip": "trip-b"})
    t = s.drive(t + 10, "car-1", STREET, 1810, total)
    s.status(t + 1, "trip-b", "COMPLETE")
    s.checkpoint(t + 2, "done", trip="trip-a", vehicle="car-1")
    return s


def intermediate_destinations():
    s = Scene("intermediate-destinations", "One rider with two stops on the way: the trip moves through "
              "ENROUTE_TO/ARRIVED_AT_INTERMEDIATE_DESTINATION with intermediateDestinationIndex 0 and 1.")
    total = length(STREET)
    pickup, _ = along(STREET, 300)
    stop1, _ = along(STREET, 900)
    stop2, _ = along(STREET, 1500)
    s.vehicle(0, "car-1", STREET[0])
    s.trip(1, "trip-1", "car-1", pickup, STREET[-1], stops=(stop1, stop2))
    s.route(2, "car-1", STREET)
    s.status(3, "trip-1", "ENROUTE_TO_PICKUP")
    t = s.drive(4, "car-1", STREET, 0, 300)
    s.status(t + 1, "trip-1", "ARRIVED_AT_PICKUP")
    s.status(t + 20, "trip-1", "ENROUTE_TO_INTERMEDIATE_DESTINATION", intermediateDestinationIndex=0)
    s.checkpoint(t + 21, "to-stop-1", trip="trip-1", render={"trip": "trip-1"})
    t = s.drive(t + 22, "car-1", STREET, 300, 900)
    s.status(t + 1, "trip-1", "ARRIVED_AT_INTERMEDIATE_DESTINATION", intermediateDestinationIndex=0)
    s.status(t + 60, "trip-1", "ENROUTE_TO_INTERMEDIATE_DESTINATION", intermediateDestinationIndex=1)
    t = s.drive(t + 61, "car-1", STREET, 900, 1500)
    s.status(t + 1, "trip-1", "ARRIVED_AT_INTERMEDIATE_DESTINATION", intermediateDestinationIndex=1)
    s.checkpoint(t + 2, "at-stop-2", trip="trip-1", render={"trip": "trip-1"})
    s.status(t + 60, "trip-1", "ENROUTE_TO_DROPOFF")
    t = s.drive(t + 61, "car-1", STREET, 1500, total)
    s.status(t + 1, "trip-1", "COMPLETE")
    s.checkpoint(t + 2, "complete", trip="trip-1", events={"vehicle": "car-1", "types": TRIP_EVENTS})
    return s


def cancel_mid_trip():
    s = Scene("cancel-mid-trip", "The rider cancels while the car is on its way to the pickup; the car is free "
              "again, and a later status change is refused (FAILED_PRECONDITION).")
    pickup, _ = along(STREET, 1200)
    s.vehicle(0, "car-1", STREET[0])
    s.trip(1, "trip-1", "car-1", pickup, STREET[-1])
    s.route(2, "car-1", STREET)
    s.status(3, "trip-1", "ENROUTE_TO_PICKUP")
    t = s.drive(4, "car-1", STREET, 0, 500)
    s.checkpoint(t, "before-cancel", trip="trip-1", render={"trip": "trip-1"})
    s.status(t + 5, "trip-1", "CANCELED")
    s.call(t + 6, "updateTrip", "trip-1", updateMask="tripStatus", body={"tripStatus": "ARRIVED_AT_PICKUP"}, expectStatus=400)
    t = s.drive(t + 10, "car-1", STREET, 510, 700)
    s.checkpoint(t, "canceled", trip="trip-1", vehicle="car-1", render={"trip": "trip-1"},
                 events={"vehicle": "car-1", "types": TRIP_EVENTS})
    return s


def vehicle_offline():
    s = Scene("vehicle-offline", "The car goes OFFLINE mid-trip (the driver's app loses its connection) and comes "
              "back ONLINE; the rider keeps seeing its last known position meanwhile.")
    total = length(STREET)
    s.vehicle(0, "car-1", STREET[0])
    s.trip(1, "trip-1", "car-1", STREET[0], STREET[-1])
    s.route(2, "car-1", STREET)
    s.status(3, "trip-1", "ENROUTE_TO_PICKUP")
    s.status(4, "trip-1", "ARRIVED_AT_PICKUP")
    s.status(30, "trip-1", "ENROUTE_TO_DROPOFF")
    t = s.drive(31, "car-1", STREET, 0, 800)
    s.call(t + 5, "updateVehicle", "car-1", updateMask="vehicleState", body={"vehicleState": "OFFLINE"})
    s.checkpoint(t + 120, "offline", trip="trip-1", vehicle="car-1", render={"trip": "trip-1"})
    s.call(t + 180, "updateVehicle", "car-1", updateMask="vehicleState", body={"vehicleState": "ONLINE"})
    t = s.drive(t + 181, "car-1", STREET, 800, total)
    s.status(t + 1, "trip-1", "COMPLETE")
    s.checkpoint(t + 2, "back-and-done", trip="trip-1", vehicle="car-1")
    return s


def nav_route(path):
    """A route with steps left out (a bare polyline) ending at its last point."""
    return {"encodedPolyline": encode(path), "destinations": [{"location": latlng(path[-1]), "polylinePointIndex": len(path) - 1}]}


def reroute():
    s = Scene("reroute", "The driver leaves the planned route at the third corner (a closed street): the navigator "
              "goes off route (navigationStatus OFF_ROUTE), then the app sends a new route through the detour "
              "(navigatorDidChangeRoute) and the rider's remaining distance grows.")
    pickup = STREET[0]
    detour_start = along(DETOUR, 400)[0]
    s.s["routes"] = {"planned": nav_route(STREET), "detour": nav_route([detour_start] + DETOUR[1:] + STREET[5:])}
    s.vehicle(0, "car-1", STREET[0])
    s.trip(1, "trip-1", "car-1", pickup, STREET[-1])
    s.call(2, "setRoute", "car-1", route="planned")
    s.status(3, "trip-1", "ENROUTE_TO_PICKUP")
    s.status(4, "trip-1", "ARRIVED_AT_PICKUP")
    s.status(20, "trip-1", "ENROUTE_TO_DROPOFF")
    t = s.drive(21, "car-1", STREET, 0, length(STREET[:3]))
    nav_events = {"vehicle": "car-1", "types": ["navigatorDidChangeRoute", "didArriveAtWaypoint", "didUpdateTripStatus"]}
    s.checkpoint(t, "planned", trip="trip-1", nav="car-1", render={"trip": "trip-1"}, events=nav_events)
    t = s.drive(t + 5, "car-1", DETOUR, 0, 400, every=5)
    s.checkpoint(t, "off-route", trip="trip-1", vehicle="car-1", nav="car-1", render={"trip": "trip-1"})
    s.call(t + 1, "setRoute", "car-1", route="detour")
    s.checkpoint(t + 2, "rerouted", trip="trip-1", nav="car-1", render={"trip": "trip-1"}, events=nav_events)
    return s


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures")
    scenes = [
        basic_trip("basic-trip", "One rider, picked up and dropped off on a short drive; the simplest fixture."),
        basic_trip("night", "The basic trip drawn with the night style and low-light lighting.",
                   render={"trip": "trip-1", "style": "night", "options": {"lighting": "lowLight"}}),
        shared_ride(), intermediate_destinations(), cancel_mid_trip(), vehicle_offline(), reroute(),
    ]
    custom = basic_trip("custom-style", "The basic trip drawn with a style sent over the API (PUT /v1/styles/brand-x): "
                        "a wide orange route, a purple pickup badge.",
                        render={"trip": "trip-1", "style": "brand-x", "options": {"width": "480", "height": "360"}})
    custom.s["styles"] = {"brand-x": {"polylines": {"activeRoute": {"color": "#E8710A", "width": 9}},
                                      "markers": {"tripPickupPoint": {"etaLabel": {"backgroundColor": "#6A1B9A"}}}}}
    custom.call(0, "putStyle", "brand-x")
    scenes.append(custom)
    for scene in scenes:
        scene.write(out)
        print("wrote", os.path.join(out, scene.s["name"], "scenario.json"))


if __name__ == "__main__":
    main()
