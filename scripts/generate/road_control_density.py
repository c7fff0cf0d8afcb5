#!/usr/bin/env python3
"""Traffic lights and stop signs per kilometre of road, by the estimator's road class, counted
in raw OpenStreetMap (docs/estimates.md, `RoadClass.trafficSignalsPerKilometre` and
`stopSignsPerKilometre` in Sources/TripModel/Estimation/RoadClass.swift).

Reads Overpass API JSON responses (optionally gzip'd): drivable `highway` ways are measured
by class, and each `highway=traffic_signals` or `highway=stop` node on a way counts for that
way's class (a node shared by ways of two classes counts for both: a car on either passes it).
The lights of one junction (signal nodes within 50 m of one already counted) count once.

    scripts/generate/road_control_density.py ../shared/fixtures/roads/osm-overpass/*.json.gz

Map data © OpenStreetMap contributors (ODbL).
"""

import gzip
import json
import math
import sys
from collections import Counter

# OpenStreetMap `highway` → the estimator's RoadClass (service roads are left out, as the
# extracts' drivable network is).
CLASSES = {
    "motorway": "motorway", "motorway_link": "motorwayLink", "trunk": "trunk", "primary": "primary",
    "secondary": "secondary", "tertiary": "tertiary", "trunk_link": "link", "primary_link": "link",
    "secondary_link": "link", "tertiary_link": "link", "residential": "minor", "unclassified": "minor",
    "living_street": "minor",
}
ORDER = ["motorway", "motorwayLink", "trunk", "primary", "secondary", "tertiary", "link", "minor"]
JUNCTION_METRES = 50


def metres(a, b):
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    return 6371008.8 * math.hypot((lo2 - lo1) * math.cos((la1 + la2) / 2), la2 - la1)


def count(path, km, signals, stops):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        elements = json.load(f)["elements"]
    nodes = {e["id"]: (e["lat"], e["lon"], e.get("tags", {})) for e in elements if e["type"] == "node"}
    classes_at = {}
    for way in elements:
        road_class = CLASSES.get(way.get("tags", {}).get("highway")) if way["type"] == "way" else None
        if not road_class:
            continue
        ids = way["nodes"]
        for a, b in zip(ids, ids[1:]):
            if a in nodes and b in nodes:
                km[road_class] += metres(nodes[a], nodes[b]) / 1000
        for node in set(ids):
            classes_at.setdefault(node, set()).add(road_class)
    counted = []
    for node, road_classes in classes_at.items():
        if node not in nodes:
            continue
        lat, lon, tags = nodes[node]
        kind = tags.get("highway")
        if kind == "traffic_signals":
            if any(metres((lat, lon), p) < JUNCTION_METRES for p in counted):
                continue
            counted.append((lat, lon))
            for road_class in road_classes:
                signals[road_class] += 1
        elif kind == "stop":
            for road_class in road_classes:
                stops[road_class] += 1


def main(paths):
    km, signals, stops = Counter(), Counter(), Counter()
    for path in paths:
        count(path, km, signals, stops)
    print(f"{sum(km.values()):.0f} km of drivable road in {len(paths)} files")
    print("| class | km | traffic lights per km | stop signs per km |")
    print("|---|---|---|---|")
    for road_class in ORDER:
        if km[road_class]:
            print(f"| {road_class} | {km[road_class]:.1f} | {signals[road_class] / km[road_class]:.2f} | {stops[road_class] / km[road_class]:.2f} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
