/// The class of a road as the operator's basemap names it (OpenMapTiles' `transportation`
/// layer `class`, Mapbox Streets' `road` layer `class`), with the speed a car drives it at in
/// free flow. The speeds are OSRM's car profile's defaults for OpenStreetMap's `highway`
/// values (`profiles/car.lua`, `speeds.highway`, in km/h), not fitted to any log.
package enum RoadClass: String, Codable, Hashable, Sendable, CaseIterable {
    case motorway
    /// A motorway's ramp (`motorway_link`).
    case motorwayLink
    case trunk
    case primary
    case secondary
    case tertiary
    /// A ramp or slip road of a trunk, primary, secondary or tertiary road.
    case link
    /// Residential and unclassified streets (OpenMapTiles `minor`, Mapbox `street`).
    case minor
    /// Service roads: alleys, driveways, parking aisles.
    case service

    /// Free-flow speed of a car, m/s.
    package var freeFlowSpeed: Double {
        let kilometresPerHour: Double =
            switch self {
            case .motorway: 90
            case .motorwayLink: 45
            case .trunk: 85
            case .primary: 65
            case .secondary: 55
            case .tertiary: 40
            case .link: 30 // OSRM: trunk_link 40, primary_link 30, secondary_link 25, tertiary_link 20
            case .minor: 25
            case .service: 15
            }
        return kilometresPerHour / 3.6
    }

    /// How the road ranks for right of way: at a junction without lights, a road gives way to
    /// one of its own rank or higher.
    package var rank: Int {
        switch self {
        case .motorway, .motorwayLink: 7
        case .trunk: 6
        case .primary: 5
        case .secondary: 4
        case .tertiary, .link: 3
        case .minor: 2
        case .service: 1
        }
    }

    /// Traffic lights per kilometre of a road of this class, for a way whose roads are known
    /// only as a mix (``RoadMix``), not one by one. Counted in OpenStreetMap
    /// (`../shared/fixtures/roads/osm-overpass`: 974 km of drivable road in San Francisco and
    /// Los Altos; `scripts/generate/road_control_density.py`): the `highway=traffic_signals`
    /// nodes on ways of the class, the lights of one junction (within 50 m) once. Service roads
    /// are not in the extracts; they have none here.
    package var trafficSignalsPerKilometre: Double {
        switch self {
        case .motorway, .service: 0
        case .motorwayLink: 0.08
        case .trunk: 1.84
        case .primary: 5.00
        case .secondary: 4.65
        case .tertiary: 4.01
        case .link: 1.41
        case .minor: 0.83
        }
    }

    /// Stop signs per kilometre of a road of this class, counted as
    /// ``trafficSignalsPerKilometre`` (`highway=stop` nodes).
    package var stopSignsPerKilometre: Double {
        switch self {
        case .motorway, .primary, .service: 0
        case .motorwayLink: 0.08
        case .trunk: 0.06
        case .secondary: 0.04
        case .tertiary: 0.40
        case .link: 0.42
        case .minor: 0.75
        }
    }

    /// Seconds per metre of a road of this class when its lights and stop signs are not known
    /// one by one: its free-flow speed, plus its typical number of lights and stop signs per
    /// metre at what each costs (``Estimation/trafficSignalSeconds``,
    /// ``Estimation/giveWaySeconds(speed:)``).
    package var typicalSecondsPerMeter: Double {
        let speed = freeFlowSpeed
        let stops = trafficSignalsPerKilometre * Estimation.trafficSignalSeconds + stopSignsPerKilometre * Estimation.giveWaySeconds(speed: speed)
        return 1 / speed + stops / 1000
    }
}
