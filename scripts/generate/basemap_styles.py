#!/usr/bin/env python3
"""Writes tripshare's basemap styles (MapLibre style JSON) from one layer plan and a palette
per look, so the day and night styles never drift apart.

Usage: scripts/generate/basemap_styles.py        (rewrites the files listed in OUTPUTS)

- Sources/Basemap/styles/openmaptiles-day.json, -night.json: the built-in styles for the
  OpenMapTiles schema (layers water, landcover, landuse, park, waterway, building,
  transportation, transportation_name, place, poi, water_name, housenumber, boundary).
- Tests/BasemapTests/Fixtures/mapbox-streets-v7.json: a small style for the Mapbox Streets
  v7 schema (the San Francisco test tiles), an example of a style for another schema.

Design: calm, low-contrast land and roads under trip lines, so the preview's route blue
(#1A73E8 by day, #8AB4F8 at night) is the most saturated thing on the map; warm tints for
major roads (never blue), water a greyed blue. Zooms are MapLibre's (one below tripshare's
preview zoom for the same ground resolution). Names: `name`, else `name:latin`.
"""
import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")

DAY = {
    "background": "#F3F2EE", "wood": "#DDE8D3", "grass": "#E4EEDB", "park": "#DCEAD2", "pitch": "#D5E6CB",
    "residential": "#EFEEE9", "commercial": "#F1EDE8", "institution": "#F2EAE6", "industrial": "#ECEBE7",
    "water": "#C3D5E3", "waterway": "#B5CADB", "building": "#E2E0DA", "building_outline": "#D4D1CA",
    "casing": "#D8D5CE", "minor": "#FFFFFF", "service": "#FCFCFA", "major": "#FFFFFF", "primary": "#FBF1D9",
    "primary_casing": "#E6D7B4", "motorway": "#F8E2B6", "motorway_casing": "#DFC08A", "path": "#CAC5BA",
    "rail": "#C7C5C1", "tram": "#D0CDC8", "pier": "#F3F2EE", "boundary": "#B8B2C6",
    "road_label": "#5F6368", "road_label_halo": "#FFFFFF", "place_label": "#77736A", "city_label": "#3C4043",
    "place_halo": "#F7F6F3", "poi_label": "#7D776D", "water_label": "#6E8CA4", "water_halo": "#EEF3F7",
    "housenumber": "#A6A196",
}

NIGHT = {
    "background": "#222B38", "wood": "#243532", "grass": "#253530", "park": "#24393A", "pitch": "#274038",
    "residential": "#242E3B", "commercial": "#27303D", "institution": "#29303E", "industrial": "#252E3A",
    "water": "#17263C", "waterway": "#1C2F48", "building": "#2B3545", "building_outline": "#323D4E",
    "casing": "#1B222C", "minor": "#3A4555", "service": "#343E4D", "major": "#444F60", "primary": "#56524A",
    "primary_casing": "#2A2C2E", "motorway": "#6A5D47", "motorway_casing": "#2C2A26", "path": "#3E4857",
    "rail": "#465061", "tram": "#3F4959", "pier": "#222B38", "boundary": "#56506A",
    "road_label": "#A7B0BE", "road_label_halo": "#1D2530", "place_label": "#9AA3B2", "city_label": "#C8CFDA",
    "place_halo": "#1D2530", "poi_label": "#8E97A5", "water_label": "#6F8BAE", "water_halo": "#15202F",
    "housenumber": "#6B7484",
}


def ramp(*stops, base=1.4):
    """An exponential zoom ramp: ramp(12, 0.5, 16, 4) → interpolate over zoom."""
    return ["interpolate", ["exponential", base], ["zoom"], *stops]


NAME = ["coalesce", ["get", "name"], ["get", "name:latin"]]
REGULAR = ["Noto Sans Regular"]
BOLD = ["Noto Sans Bold"]
ITALIC = ["Noto Sans Italic"]


def fill(id, source_layer, color, filter=None, minzoom=None, opacity=None, outline=None):
    layer = {"id": id, "type": "fill", "source": "openmaptiles", "source-layer": source_layer, "paint": {"fill-color": color}}
    if filter is not None:
        layer["filter"] = filter
    if minzoom is not None:
        layer["minzoom"] = minzoom
    if opacity is not None:
        layer["paint"]["fill-opacity"] = opacity
    if outline is not None:
        layer["paint"]["fill-outline-color"] = outline
    return layer


def line(id, source_layer, color, width, filter=None, minzoom=None, dash=None, cap="round", join="round", opacity=None,
         source="openmaptiles"):
    layer = {"id": id, "type": "line", "source": source, "source-layer": source_layer,
             "layout": {"line-cap": cap, "line-join": join}, "paint": {"line-color": color, "line-width": width}}
    if filter is not None:
        layer["filter"] = filter
    if minzoom is not None:
        layer["minzoom"] = minzoom
    if dash is not None:
        layer["paint"]["line-dasharray"] = dash
    if opacity is not None:
        layer["paint"]["line-opacity"] = opacity
    return layer


def label(id, source_layer, color, halo, size, font=REGULAR, filter=None, minzoom=None, placement="point",
          field=NAME, transform=None, spacing=None, max_width=None, sort_key=None, halo_width=1.5, source="openmaptiles"):
    layer = {"id": id, "type": "symbol", "source": source, "source-layer": source_layer,
             "layout": {"text-field": field, "text-font": font, "text-size": size, "symbol-placement": placement},
             "paint": {"text-color": color, "text-halo-color": halo, "text-halo-width": halo_width}}
    if filter is not None:
        layer["filter"] = filter
    if minzoom is not None:
        layer["minzoom"] = minzoom
    if transform:
        layer["layout"]["text-transform"] = transform
    if spacing:
        layer["layout"]["text-letter-spacing"] = spacing
    if max_width:
        layer["layout"]["text-max-width"] = max_width
    if sort_key is not None:
        layer["layout"]["symbol-sort-key"] = sort_key
    return layer


def classes(*names):
    return ["match", ["get", "class"], list(names), True, False]


def openmaptiles(p, name):
    minor_width = ramp(13, 0.6, 15, 3, 17, 9, 19, 26)
    service_width = ramp(14, 0.5, 16, 2.5, 18, 7, 20, 16)
    major_width = ramp(11, 0.8, 13, 2, 15, 5, 17, 12, 19, 32)
    primary_width = ramp(9, 0.8, 12, 2, 15, 6, 17, 14, 19, 38)
    motorway_width = ramp(7, 0.8, 11, 2, 15, 7, 17, 16, 19, 42)

    def casing(width, extra):
        # The casing shows `extra` pixels each side of the road at every zoom.
        return ["+", width, extra]

    is_line = ["==", ["geometry-type"], "LineString"]
    layers = [
        {"id": "background", "type": "background", "paint": {"background-color": p["background"]}},
        fill("landcover-wood", "landcover", p["wood"], classes("wood", "forest")),
        fill("landcover-grass", "landcover", p["grass"], classes("grass", "meadow", "farmland", "scrub")),
        fill("landuse-residential", "landuse", p["residential"], classes("residential", "suburb", "neighbourhood")),
        fill("landuse-commercial", "landuse", p["commercial"], classes("commercial", "retail")),
        fill("landuse-industrial", "landuse", p["industrial"], classes("industrial", "railway", "garages")),
        fill("landuse-institution", "landuse", p["institution"],
             classes("school", "university", "college", "hospital", "library", "kindergarten")),
        fill("park", "park", p["park"]),
        fill("landuse-pitch", "landuse", p["pitch"], classes("pitch", "playground", "stadium", "cemetery")),
        fill("water", "water", p["water"]),
        line("waterway", "waterway", p["waterway"], ramp(12, 0.5, 16, 2, 19, 6), minzoom=12),
        fill("building", "building", p["building"], minzoom=14),
        # Outlines only where buildings are big enough for them to read as walls, not noise.
        line("building-outline", "building", p["building_outline"], ramp(16, 0.5, 18, 1), minzoom=16, cap="butt",
             join="miter"),
        fill("pier", "transportation", p["pier"], ["==", ["geometry-type"], "Polygon"]),
        line("path", "transportation", p["path"], ramp(15, 0.6, 18, 1.6, 20, 3),
             ["all", is_line, classes("path", "track")], minzoom=15, dash=[2.5, 1.5], cap="butt"),
        line("rail", "transportation", p["rail"], ramp(13, 0.6, 16, 1.5, 19, 3),
             ["all", is_line, classes("rail", "transit")], minzoom=13),
        line("tram", "transportation", p["tram"], ramp(14, 0.5, 17, 1.2, 19, 2),
             ["all", is_line, classes("tram")], minzoom=14),
        line("road-minor-casing", "transportation", p["casing"], casing(minor_width, ramp(14, 0.5, 17, 1.5)),
             ["all", is_line, classes("minor", "minor_construction")], minzoom=13),
        line("road-major-casing", "transportation", p["casing"], casing(major_width, ramp(12, 0.5, 17, 1.5)),
             ["all", is_line, classes("secondary", "tertiary")], minzoom=11),
        line("road-primary-casing", "transportation", p["primary_casing"], casing(primary_width, ramp(11, 0.5, 17, 1.5)),
             ["all", is_line, classes("primary", "trunk")], minzoom=9),
        line("road-motorway-casing", "transportation", p["motorway_casing"], casing(motorway_width, ramp(10, 0.5, 17, 1.5)),
             ["all", is_line, classes("motorway")], minzoom=7),
        line("road-service", "transportation", p["service"], service_width,
             ["all", is_line, classes("service")], minzoom=14),
        line("road-minor", "transportation", p["minor"], minor_width,
             ["all", is_line, classes("minor", "minor_construction")], minzoom=13),
        line("road-major", "transportation", p["major"], major_width,
             ["all", is_line, classes("secondary", "tertiary")], minzoom=11),
        line("road-primary", "transportation", p["primary"], primary_width,
             ["all", is_line, classes("primary", "trunk")], minzoom=9),
        line("road-motorway", "transportation", p["motorway"], motorway_width,
             ["all", is_line, classes("motorway")], minzoom=7),
        line("boundary", "boundary", p["boundary"], ramp(3, 0.5, 10, 1.2, 16, 2),
             ["<=", ["to-number", ["get", "admin_level"]], 4], dash=[3, 2]),
        label("water-name", "water_name", p["water_label"], p["water_halo"], ramp(13, 11, 17, 14), font=ITALIC,
              minzoom=13, max_width=8),
        label("housenumber", "housenumber", p["housenumber"], p["place_halo"], 10, field=["get", "housenumber"],
              minzoom=17, halo_width=1),
        label("poi", "poi", p["poi_label"], p["place_halo"], ramp(15, 10.5, 18, 12), minzoom=15, max_width=8,
              filter=["all", ["any", ["has", "name"], ["has", "name:latin"]],
                      ["!", classes("barrier", "bus", "entrance", "post", "amenity", "shop", "clothing_store", "car",
                                    "fast_food", "cafe", "beer", "bar", "restaurant")],
                      ["<=", ["coalesce", ["to-number", ["get", "rank"]], 99], ["step", ["zoom"], 20, 16, 60, 17, 99]]],
              sort_key=["coalesce", ["to-number", ["get", "rank"]], 99]),
        label("road-name-minor", "transportation_name", p["road_label"], p["road_label_halo"], ramp(14, 10, 17, 12.5, 19, 14),
              filter=classes("minor", "service", "path", "track"), minzoom=15, placement="line"),
        label("road-name-major", "transportation_name", p["road_label"], p["road_label_halo"], ramp(12, 10.5, 16, 12.5, 19, 15),
              filter=classes("primary", "secondary", "tertiary", "trunk", "motorway"), minzoom=12, placement="line"),
        label("place-neighbourhood", "place", p["place_label"], p["place_halo"], ramp(12, 10.5, 16, 12.5),
              filter=classes("suburb", "quarter", "neighbourhood", "hamlet"), transform="uppercase", spacing=0.08,
              max_width=7),
        label("place-town", "place", p["city_label"], p["place_halo"], ramp(6, 11, 12, 15, 16, 17), font=BOLD,
              filter=classes("city", "town", "village"), max_width=8, halo_width=2),
    ]
    return {"version": 8, "name": name,
            "metadata": {"tripshare:about": "tripshare's own basemap style for the OpenMapTiles schema; "
                                            "generated by scripts/generate/basemap_styles.py"},
            "sources": {"openmaptiles": {"type": "vector", "url": "tripshare://basemap"}},
            "layers": layers}


def streets_v7():
    """A small day style for the Mapbox Streets v7 schema, drawing what the SF tiles hold."""
    p = DAY

    def src(layer):
        layer["source"] = "composite"
        return layer

    road_classes = {
        "street": (ramp(13, 0.6, 15, 3, 17, 9, 19, 26), p["minor"]),
        "street_limited": (ramp(13, 0.6, 15, 3, 17, 9, 19, 26), p["minor"]),
        "service": (ramp(14, 0.5, 16, 2.5, 18, 7, 20, 16), p["service"]),
        "tertiary": (ramp(11, 0.8, 13, 2, 15, 5, 17, 12, 19, 32), p["major"]),
        "secondary": (ramp(11, 0.8, 13, 2, 15, 5, 17, 12, 19, 32), p["major"]),
        "primary": (ramp(9, 0.8, 12, 2, 15, 6, 17, 14, 19, 38), p["primary"]),
        "link": (ramp(12, 0.6, 15, 3, 17, 9), p["primary"]),
    }
    layers = [
        {"id": "background", "type": "background", "paint": {"background-color": p["background"]}},
        src(fill("landcover", "landcover", p["grass"], opacity={"stops": [[10, 1], [15, 0.6]]})),
        src(fill("park", "landuse", p["park"], ["in", "class", "park", "grass", "wood", "pitch"])),
        src(fill("school", "landuse", p["institution"], ["in", "class", "school", "hospital"])),
        src(fill("parking", "landuse", p["industrial"], ["==", "class", "parking"])),
        src(fill("water", "water", p["water"])),
        src(fill("building", "building", p["building"], ["!=", "underground", "true"], minzoom=14)),
        src(line("building-outline", "building", p["building_outline"], ramp(16, 0.5, 18, 1), ["!=", "underground", "true"],
                 minzoom=16, cap="butt", join="miter")),
        src(line("path", "road", p["path"], ramp(15, 0.6, 18, 1.6), ["==", "class", "path"], minzoom=15, dash=[2.5, 1.5],
                 cap="butt")),
        src(line("rail", "road", p["rail"], ramp(13, 0.6, 16, 1.5, 19, 3), ["in", "class", "major_rail", "minor_rail"])),
    ]
    for name, (width, color) in road_classes.items():
        layers.append(src(line(f"road-{name}-casing", "road", p["casing"], ["+", width, ramp(14, 0.5, 17, 1.5)],
                               ["all", ["==", "$type", "LineString"], ["==", "class", name]])))
    for name, (width, color) in road_classes.items():
        layers.append(src(line(f"road-{name}", "road", color, width,
                               ["all", ["==", "$type", "LineString"], ["==", "class", name]])))
    layers += [
        src(label("road-label", "road_label", p["road_label"], p["road_label_halo"], ramp(13, 10, 17, 13),
                  field="{name}", placement="line", minzoom=13)),
        src(label("poi-label", "poi_label", p["poi_label"], p["place_halo"], 11, field="{name}", minzoom=15, max_width=8,
                  filter=["<=", "scalerank", 2])),
        src(label("place-label", "place_label", p["place_label"], p["place_halo"], ramp(12, 11, 16, 13), field="{name}",
                  transform="uppercase", spacing=0.08, max_width=7)),
    ]
    # A sprite and an icon layer, outside the subset, show the one-warning behaviour.
    layers.append({"id": "poi-icons", "type": "symbol", "source": "composite", "source-layer": "poi_label",
                   "layout": {"icon-image": "{maki}-11"}})
    return {"version": 8, "name": "Mapbox Streets v7 (tripshare example)", "sprite": "mapbox://sprites/example",
            "sources": {"composite": {"type": "vector", "url": "mapbox://mapbox.mapbox-streets-v7"}},
            "layers": layers}


OUTPUTS = {
    "Sources/Basemap/styles/openmaptiles-day.json": lambda: openmaptiles(DAY, "tripshare day (OpenMapTiles)"),
    "Sources/Basemap/styles/openmaptiles-night.json": lambda: openmaptiles(NIGHT, "tripshare night (OpenMapTiles)"),
    "Tests/BasemapTests/Fixtures/mapbox-streets-v7.json": streets_v7,
}


def main():
    for path, make in OUTPUTS.items():
        target = os.path.join(ROOT, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w") as handle:
            json.dump(make(), handle, indent=1, ensure_ascii=False)
            handle.write("\n")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
