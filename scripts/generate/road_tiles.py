#!/usr/bin/env python3
"""Vector tiles of roads and traffic lights from raw OpenStreetMap, for tests of the
estimator's road classes (docs/estimates.md).

Reads Overpass API JSON responses (optionally gzip'd) and GeoJSON point files of
`highway=traffic_signals` nodes (such as ../shared/fixtures/roads/osm-signals/osmRestrictions.js,
a JavaScript file holding one), writes them as one OSM file, and makes an MBTiles archive at
zoom 14 with Debian's tilemaker and scripts/generate/road-tiles/ (a `road` layer spelled as Mapbox
Streets v8 spells it). Needs the Debian packages tilemaker and osmium-tool.

    scripts/generate/road_tiles.py --out roads.mbtiles OVERPASS.json.gz [...] [--signals FILE.js]

Map data © OpenStreetMap contributors (ODbL): keep the attribution with the tiles.
"""

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from xml.sax.saxutils import quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))


def load_json(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        text = f.read()
    # A JavaScript file assigning one object: take the object.
    start = text.find("{")
    return json.loads(text[start:].rstrip().rstrip(";"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("overpass", nargs="*", help="Overpass API JSON responses (.json or .json.gz)")
    parser.add_argument("--signals", action="append", default=[], help="GeoJSON of traffic_signals points")
    parser.add_argument("--out", required=True, help="the MBTiles file to write")
    args = parser.parse_args()

    nodes = {}
    ways = {}
    for path in args.overpass:
        for element in load_json(path)["elements"]:
            if element["type"] == "node":
                nodes[element["id"]] = element
            elif element["type"] == "way":
                ways[element["id"]] = element
    next_id = -1
    for path in args.signals:
        for feature in load_json(path)["features"]:
            if feature["properties"].get("highway") != "traffic_signals":
                continue
            ref = feature["properties"].get("@id", "")
            node_id = int(ref.split("/")[-1]) if ref.startswith("node/") else next_id
            if node_id == next_id:
                next_id -= 1
            lon, lat = feature["geometry"]["coordinates"]
            known = nodes.get(node_id, {"type": "node", "id": node_id, "lat": lat, "lon": lon})
            known.setdefault("tags", {})["highway"] = "traffic_signals"
            nodes[node_id] = known
    # Ways whose nodes were cut off at the extract's edge are dropped.
    ways = {i: w for i, w in ways.items() if all(n in nodes for n in w["nodes"])}

    with tempfile.TemporaryDirectory() as folder:
        xml = os.path.join(folder, "roads.osm")
        with open(xml, "w", encoding="utf-8") as out:
            out.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="make_road_tiles">\n')
            for node_id in sorted(nodes, key=lambda i: (i < 0, abs(i))):
                node = nodes[node_id]
                tags = node.get("tags", {})
                out.write(f'<node id="{node_id}" version="1" lat="{node["lat"]}" lon="{node["lon"]}"')
                if tags:
                    out.write(">" + "".join(f"<tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in tags.items()) + "</node>\n")
                else:
                    out.write("/>\n")
            for way_id in sorted(ways):
                way = ways[way_id]
                out.write(f'<way id="{way_id}" version="1">')
                out.write("".join(f'<nd ref="{n}"/>' for n in way["nodes"]))
                out.write("".join(f"<tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in way.get("tags", {}).items()))
                out.write("</way>\n")
            out.write("</osm>\n")
        pbf = os.path.join(folder, "roads.osm.pbf")
        subprocess.run(["osmium", "sort", "--overwrite", "-o", pbf, xml], check=True)
        if os.path.exists(args.out):
            os.remove(args.out)
        subprocess.run(
            ["tilemaker", "--input", pbf, "--output", args.out, "--config", os.path.join(HERE, "road-tiles", "config.json"),
             "--process", os.path.join(HERE, "road-tiles", "process.lua")],
            check=True, stdout=subprocess.DEVNULL)
    print(f"{args.out}: {len(ways)} ways, {sum(1 for n in nodes.values() if n.get('tags', {}).get('highway') == 'traffic_signals')} traffic lights")


if __name__ == "__main__":
    sys.exit(main())
