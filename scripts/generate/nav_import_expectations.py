#!/usr/bin/env python3
"""Writes the expected steps of the two router fixtures, for NavigationTests.

Reads shared/fixtures/osrm/portugal_to_korea.json and shared/fixtures/valhalla/route.json
and applies the mapping table of the navigation issue (issue 4) and the instruction
templates of Sources/Navigation/RouteText.swift, written again here from the table, not
from the Swift code, so the tests compare two independent readings of the same rules.

Run from the repository root:  python3 scripts/generate/nav_import_expectations.py
It rewrites Tests/NavigationTests/Data/{osrm,valhalla}-expected.json.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import navroutes  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "..", "shared", "fixtures")
OUT = os.path.join(ROOT, "Tests", "NavigationTests", "Data")

# --- directions --------------------------------------------------------------------------

DIRECTIONS = ["straight", "slight left", "left", "sharp left", "slight right", "right", "sharp right", "uturn"]


def classify(angle):
    """Angle in degrees (positive = right) to a direction, with the SDK lane-shape classes."""
    a = ((angle + 180) % 360) - 180
    if a == -180:
        a = 180
    m = abs(a)
    if m < 10:
        return "straight"
    if m >= 175:
        return "uturn"
    side = "right" if a > 0 else "left"
    if m < 45:
        return "slight " + side
    if m < 135:
        return side
    return "sharp " + side


def cap(word):
    return word[0].upper() + word[1:]


def camel(direction):
    """'slight left' -> 'SlightLeft', 'left' -> 'Left'."""
    return "".join(cap(w) for w in direction.split())


def turn(direction, side):
    if direction is None or direction == "straight":
        return "straight"
    if direction == "uturn":
        return "turnUTurnClockwise" if side == "LEFT" else "turnUTurnCounterClockwise"
    return "turn" + camel(direction)


def ramp(prefix, direction, side):
    if direction is None or direction == "straight":
        return prefix + "Unspecified"
    if direction == "uturn":
        return prefix + ("UTurnClockwise" if side == "LEFT" else "UTurnCounterClockwise")
    return prefix + camel(direction)


def is_left(direction):
    return direction in ("slight left", "left", "sharp left")


def is_right(direction):
    return direction in ("slight right", "right", "sharp right")


def roundabout(angle, side):
    rot = "Clockwise" if side == "LEFT" else "CounterClockwise"
    if angle is None:
        return "roundabout" + rot
    d = classify(angle)
    name = {"straight": "Straight", "uturn": "UTurn"}.get(d) or camel(d)
    return "roundabout" + name + rot


LANE_SHAPE = {
    None: "unknown", "none": "unknown", "straight": "straight", "slight left": "slightLeft",
    "left": "normalLeft", "sharp left": "sharpLeft", "slight right": "slightRight",
    "right": "normalRight", "sharp right": "sharpRight",
}


def lane_shape(direction, side):
    if direction == "uturn":
        return "uTurnRight" if side == "LEFT" else "uTurnLeft"
    return LANE_SHAPE.get(direction, "unknown")


# --- text --------------------------------------------------------------------------------

def cardinal(bearing):
    names = ["north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"]
    return names[int(((bearing % 360) + 22.5) // 45) % 8]


def ordinal(n):
    if (n // 10) % 10 != 1 and n % 10 in (1, 2, 3):
        return str(n) + {1: "st", 2: "nd", 3: "rd"}[n % 10]
    return str(n) + "th"


def label(name, ref):
    if name and ref:
        return "%s (%s)" % (name, ref)
    return name or ref


def full_name(name, ref, toward, exit_number):
    parts = []
    if exit_number:
        parts.append("Exit " + exit_number)
    if label(name, ref):
        parts.append(label(name, ref))
    if toward:
        parts.append(toward)
    return " / ".join(parts)


def instruction(maneuver, road, toward, exit_number, exit_count, bearing_after, dest_number, final):
    onto = " onto " + road if road else ""
    toward_or_onto = " toward " + toward if toward else onto
    side = " on the left" if maneuver.endswith("Left") else " on the right" if maneuver.endswith("Right") else ""
    if maneuver == "depart":
        return "Head " + cardinal(bearing_after) + (" on " + road if road else "")
    if maneuver.startswith("destination"):
        text = "Arrive at your destination" if final or dest_number is None else "Arrive at waypoint %d" % dest_number
        return text + {"destinationLeft": ", on the left", "destinationRight": ", on the right"}.get(maneuver, "")
    simple = {
        "straight": "Continue straight", "turnLeft": "Turn left", "turnRight": "Turn right",
        "turnSlightLeft": "Turn slightly left", "turnSlightRight": "Turn slightly right",
        "turnSharpLeft": "Turn sharply left", "turnSharpRight": "Turn sharply right",
        "turnKeepLeft": "Keep left", "turnKeepRight": "Keep right",
        "turnUTurnClockwise": "Make a U-turn", "turnUTurnCounterClockwise": "Make a U-turn",
        "mergeUnspecified": "Merge", "mergeLeft": "Merge left", "mergeRight": "Merge right",
        "ferryBoat": "Take the ferry", "ferryTrain": "Take the train ferry",
        "nameChange": "Continue", "unknown": "Continue",
    }
    if maneuver in simple:
        return simple[maneuver] + onto
    if maneuver in ("forkLeft", "forkRight"):
        return "Keep %s at the fork" % ("left" if maneuver == "forkLeft" else "right") + toward_or_onto
    if maneuver.startswith("onRamp"):
        return "Take the ramp" + side + toward_or_onto
    if maneuver.startswith("offRamp"):
        if exit_number:
            return "Take exit " + exit_number + toward_or_onto
        return "Take the exit" + side + toward_or_onto
    if maneuver.startswith("roundaboutExit"):
        return "Exit the roundabout" + onto
    if maneuver.startswith("roundabout"):
        if not exit_count:
            return "Enter the roundabout"
        return "At the roundabout, take the %s exit" % ordinal(exit_count) + onto
    raise ValueError(maneuver)


# --- OSRM --------------------------------------------------------------------------------

def osrm():
    data = json.load(open(os.path.join(FIXTURES, "osrm", "portugal_to_korea.json")))
    legs = data["routes"][0]["legs"]
    raw = [s for leg in legs for s in leg["steps"]]
    side = {"right": "RIGHT", "left": "LEFT"}.get(raw[0].get("driving_side"), "NONE")
    arrivals = [i for i, s in enumerate(raw) if s["maneuver"]["type"] == "arrive"]
    out = []
    for k, s in enumerate(raw):
        m = s["maneuver"]
        t, mod = m["type"], m.get("modifier")
        nxt = raw[k + 1] if k + 1 < len(raw) else None
        exit_count = None
        if t == "depart":
            man = "depart"
        elif t == "arrive":
            man = "destinationLeft" if is_left(mod) else "destinationRight" if is_right(mod) else "destination"
        elif t in ("turn", "continue", "end of road"):
            man = turn(mod, side)
        elif t == "new name":
            man = "nameChange"
        elif t == "merge":
            man = "mergeLeft" if is_left(mod) else "mergeRight" if is_right(mod) else "mergeUnspecified"
        elif t == "fork":
            man = "forkLeft" if is_left(mod) else "forkRight" if is_right(mod) else "straight"
        elif t == "on ramp":
            man = ramp("onRamp", mod, side)
        elif t == "off ramp":
            man = ramp("offRamp", mod, side)
        elif t in ("roundabout", "rotary", "roundabout turn"):
            exit_count = m.get("exit")
            angle = None
            if nxt and nxt["maneuver"]["type"] in ("exit roundabout", "exit rotary"):
                angle = nxt["maneuver"]["bearing_after"] - m["bearing_before"]
            elif t == "roundabout turn":
                angle = m["bearing_after"] - m["bearing_before"]
            man = roundabout(angle, side)
        elif t in ("exit roundabout", "exit rotary"):
            exit_count = m.get("exit")
            man = "roundaboutExitClockwise" if side == "LEFT" else "roundaboutExitCounterClockwise"
        else:
            man = turn(mod, side) if mod else "unknown"
        prev_mode = raw[k - 1]["mode"] if k > 0 else None
        if s["mode"] in ("ferry", "train") and s["mode"] != prev_mode:
            man = "ferryTrain" if s["mode"] == "train" else "ferryBoat"

        name, ref = s.get("name", ""), s.get("ref", "")
        toward, exit_number = s.get("destinations", ""), s.get("exits") or None
        road = name or ref
        dest_number = arrivals.index(k) + 1 if k in arrivals else None
        lanes = []
        for lane in s["intersections"][0].get("lanes", []):
            ind = lane["indications"]
            match = mod in ind
            lanes.append([[lane_shape(i, side), bool(lane["valid"] and (not match or i == mod))] for i in ind])
        lng, lat = m["location"]
        out.append({
            "stepNumber": k,
            "maneuver": man,
            "fullRoadName": full_name(name, ref, toward, exit_number),
            "simpleRoadName": road,
            "fullInstructionText": instruction(man, road, toward, exit_number, exit_count, m["bearing_after"],
                                               dest_number, dest_number == len(arrivals)),
            "exitNumber": exit_number,
            "roundaboutTurnNumber": exit_count if exit_count is not None else -1,
            "drivingSide": side,
            "distanceFromPrevStepMeters": raw[k - 1]["distance"] if k > 0 else 0,
            "timeFromPrevStepSeconds": raw[k - 1]["duration"] if k > 0 else 0,
            "lanes": lanes,
            "maneuverLocation": [lat, lng],
        })
    return {"source": "osrm/portugal_to_korea.json", "totalDistanceMeters": data["routes"][0]["distance"],
            "destinationCount": len(legs), "steps": out}


# --- Valhalla ----------------------------------------------------------------------------

VALHALLA = {1: "depart", 2: "depart", 3: "depart", 4: "destination", 5: "destinationRight",
            6: "destinationLeft", 7: "nameChange", 8: "straight", 9: "turnSlightRight", 10: "turnRight",
            11: "turnSharpRight", 12: "turnUTurnClockwise", 13: "turnUTurnCounterClockwise",
            14: "turnSharpLeft", 15: "turnLeft", 16: "turnSlightLeft", 17: "onRampUnspecified",
            18: "onRampRight", 19: "onRampLeft", 20: "offRampRight", 21: "offRampLeft", 22: "straight",
            23: "forkRight", 24: "forkLeft", 25: "mergeUnspecified", 37: "mergeRight", 38: "mergeLeft",
            28: "ferryBoat", 29: "straight"}


def valhalla():
    data = json.load(open(os.path.join(FIXTURES, "valhalla", "route.json")))
    trip = data["trip"]
    unit = 1609.344 if trip.get("units") == "miles" else 1000.0
    raw = []
    for leg in trip["legs"]:
        shape = navroutes.decode_polyline(leg["shape"], 6)
        for v in leg["maneuvers"]:
            raw.append((v, shape))
    flags = [v.get("drive_on_right") for v, _ in raw if "drive_on_right" in v]
    side = ("RIGHT" if flags[0] else "LEFT") if flags else "NONE"
    arrivals = [i for i, (v, _) in enumerate(raw) if v["type"] in (4, 5, 6)]
    out = []
    for k, (v, shape) in enumerate(raw):
        t = v["type"]
        exit_count = None
        if t == 26:
            exit_count = v.get("roundabout_exit_count")
            nxt = raw[k + 1][0] if k + 1 < len(raw) else None
            angle = v.get("turn_degree")
            if angle is None and nxt and nxt["type"] == 27 and "bearing_before" in v and "bearing_after" in nxt:
                angle = nxt["bearing_after"] - v["bearing_before"]
            man = roundabout(angle, side)
        elif t == 27:
            man = "roundaboutExitClockwise" if side == "LEFT" else "roundaboutExitCounterClockwise"
        else:
            man = VALHALLA.get(t, "unknown")
        names = v.get("begin_street_names") or v.get("street_names") or []
        name, ref = (names[0] if names else ""), ", ".join(names[1:])
        sign = v.get("sign", {})
        toward = ", ".join(e["text"] for e in (sign.get("exit_toward_elements") or sign.get("exit_branch_elements") or []))
        exits = [e["text"] for e in sign.get("exit_number_elements", [])]
        exit_number = ", ".join(exits) or None
        dest_number = arrivals.index(k) + 1 if k in arrivals else None
        point = shape[v["end_shape_index"] if dest_number else v["begin_shape_index"]]
        prev = raw[k - 1][0] if k > 0 else None
        out.append({
            "stepNumber": k,
            "maneuver": man,
            "fullRoadName": full_name(name, ref, toward, exit_number),
            "simpleRoadName": name or ref,
            "fullInstructionText": instruction(man, name or ref, toward, exit_number, exit_count,
                                               v.get("bearing_after", 0), dest_number, dest_number == len(arrivals)),
            "exitNumber": exit_number,
            "roundaboutTurnNumber": exit_count if exit_count is not None else -1,
            "drivingSide": side,
            "distanceFromPrevStepMeters": prev["length"] * unit if prev else 0,
            "timeFromPrevStepSeconds": prev["time"] if prev else 0,
            "lanes": [],
            "maneuverLocation": [point[0], point[1]],
        })
    return {"source": "valhalla/route.json", "totalDistanceMeters": sum(v["length"] for v, _ in raw) * unit,
            "destinationCount": len(trip["legs"]), "steps": out}


def main():
    for name, result in (("osrm-expected.json", osrm()), ("valhalla-expected.json", valhalla())):
        with open(os.path.join(OUT, name), "w") as f:
            json.dump(result, f, ensure_ascii=False, indent=1)
            f.write("\n")
        print("%s: %d steps" % (name, len(result["steps"])), file=sys.stderr)


if __name__ == "__main__":
    main()
