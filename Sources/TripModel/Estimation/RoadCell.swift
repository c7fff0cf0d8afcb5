import Foundation
import Geo

/// A short piece of road in one direction of travel: a grid cell of ``size`` degrees (about
/// 110 m north–south, 90 m east–west at 37°) and the quarter of the compass the vehicle heads
/// into. The fleet's observed pace is kept per road cell (``RoadCellPace``): small enough
/// that a highway and the street beside it are usually apart, large enough that a few passes
/// fill it; the heading keeps the two directions of a road, and crossing streets, apart.
public struct RoadCell: Hashable, Comparable, Sendable {
    /// Side of a cell in degrees of latitude and of longitude.
    public static let size = 0.001

    /// The cell's number: latitude row, longitude column and heading quarter, packed.
    public var id: Int64

    /// The cell with this number.
    public init(id: Int64) { self.id = id }

    /// The cell of a place, for travel heading `headingDegrees` (clockwise from north).
    package init(_ location: LatLng, headingDegrees: Double) {
        let row = Int64(((location.latitude + 90) / Self.size).rounded(.down))
        let column = Int64(((location.longitude + 180) / Self.size).rounded(.down))
        var heading = headingDegrees.truncatingRemainder(dividingBy: 360)
        if heading < 0 { heading += 360 }
        // Quarters centred on north, east, south and west.
        let quarter = Int64(((heading + 45) / 90).rounded(.down)) % 4
        id = (row << 22 | column) << 2 | quarter
    }

    /// The grid cell without the heading: the same place.
    package var place: Int64 { id >> 2 }

    public static func < (a: RoadCell, b: RoadCell) -> Bool { a.id < b.id }

    /// The road cells a route passes through, in order, with the stretch of the route (metres
    /// from its start) in each; a cell the route enters twice appears twice. The route is
    /// sampled every ``sampleMeters``.
    package static func along(_ route: PolylineMeasure) -> [(cell: RoadCell, from: Double, to: Double)] {
        let total = route.totalMeters
        guard total > 0 else { return [] }
        var out: [(cell: RoadCell, from: Double, to: Double)] = []
        var at = 0.0
        while at < total {
            let next = min(total, at + sampleMeters)
            let a = route.point(atDistance: at)
            let b = route.point(atDistance: next)
            let middle = route.point(atDistance: (at + next) / 2)
            let cell = RoadCell(middle, headingDegrees: Earth.initialBearing(from: a, to: b))
            if let last = out.last, last.cell == cell {
                out[out.count - 1].to = next
            } else {
                out.append((cell, at, next))
            }
            at = next
        }
        return out
    }

    /// Spacing of the samples ``along(_:)`` takes: a fifth of a cell.
    static let sampleMeters = 20.0
}
