// The drivable roads of one vector tile, read for BasemapRoads: road segments with their
// class, junctions (vertices where three or more road ends meet, with the class and direction
// of each road leaving them) and traffic lights. Two schemas are read: OpenMapTiles'
// `transportation` layer (`class` motorway … minor, service; `ramp` 1 for slip roads) and
// Mapbox Streets' `road` layer (v7 and v8: `class` motorway … street, street_limited, service,
// `*_link`/`link`; v8's points of class `traffic_signals`). Classes no car drives (paths,
// tracks, rail, ferries, construction) are left out.

import Basemap
import Geo
import TripModel

/// The roads of one tile.
struct RoadTile: Sendable {
    /// The layers read.
    static let layers: Set<String> = ["transportation", "road"]

    /// A straight piece of road.
    struct Segment: Sendable {
        var a: LatLng
        var b: LatLng
        var roadClass: RoadClass
        /// Whether it may be driven only from `a` to `b`.
        var oneway: Bool
    }

    /// A place where roads meet.
    struct Junction: Sendable {
        var point: LatLng
        /// The roads leaving it: class and bearing.
        var arms: [(roadClass: RoadClass, bearing: Double)]
    }

    var segments: [Segment] = []
    var junctions: [Junction] = []
    var signals: [LatLng] = []

    var isEmpty: Bool { segments.isEmpty && signals.isEmpty }

    init(_ features: [MapFeature]) {
        var arms: [LatLng: [(roadClass: RoadClass, bearing: Double)]] = [:]
        for feature in features {
            let kind = feature.text("class") ?? ""
            if feature.type == .point {
                if kind == "traffic_signals" { signals += feature.parts.compactMap(\.first) }
                continue
            }
            guard feature.type == .lineString, let roadClass = Self.roadClass(kind, ramp: feature.text("ramp")) else { continue }
            // OpenMapTiles: 1 along the line, -1 against it; Mapbox Streets: "true".
            let oneway = feature.text("oneway")
            let reversed = oneway == "-1"
            let isOneway = reversed || oneway == "1" || oneway == "true"
            for part in feature.parts where part.count >= 2 {
                let line = reversed ? Array(part.reversed()) : part
                for i in line.indices.dropLast() {
                    segments.append(Segment(a: line[i], b: line[i + 1], roadClass: roadClass, oneway: isOneway))
                }
                for i in part.indices {
                    // An end of the piece counts once, an inner vertex twice (a road through it).
                    if i > 0 { arms[part[i], default: []].append((roadClass, Earth.initialBearing(from: part[i], to: part[i - 1]))) }
                    if i < part.count - 1 { arms[part[i], default: []].append((roadClass, Earth.initialBearing(from: part[i], to: part[i + 1]))) }
                }
            }
        }
        for (point, arms) in arms where arms.count >= 3 {
            junctions.append(Junction(point: point, arms: arms))
        }
    }

    /// The class a schema's `class` (and OpenMapTiles' `ramp`) names; nil for what no car drives.
    static func roadClass(_ name: String, ramp: String?) -> RoadClass? {
        let isRamp = ramp == "1" || ramp == "true"
        switch name {
        case "motorway": return isRamp ? .motorwayLink : .motorway
        case "motorway_link": return .motorwayLink
        case "trunk": return isRamp ? .link : .trunk
        case "primary": return isRamp ? .link : .primary
        case "secondary": return isRamp ? .link : .secondary
        case "tertiary": return isRamp ? .link : .tertiary
        case "link", "trunk_link", "primary_link", "secondary_link", "tertiary_link": return .link
        case "minor", "street", "street_limited": return .minor
        case "service": return .service
        default: return nil
        }
    }
}
