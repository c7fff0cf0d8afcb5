/// The class of a road as the operator's basemap names it (OpenMapTiles' `transportation`
/// layer `class`, Mapbox Streets' `road` layer `class`), with the speed a car drives it at in
/// free flow. The speeds are OSRM's car profile's defaults for OpenStreetMap's `highway`
/// values (`profiles/car.lua`, `speeds.highway`, in km/h), not fitted to any log.
public enum RoadClass: String, Codable, Hashable, Sendable, CaseIterable {
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
    public var freeFlowSpeed: Double {
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
    public var rank: Int {
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
}
