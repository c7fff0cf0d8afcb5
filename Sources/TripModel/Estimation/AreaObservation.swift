import Geo

/// What the fleet was observed to do in one area, summed over the legs that showed it (DESIGN
/// §5, an estimate whenever a vehicle has a trip): how roundabout its ways to stops were there
/// (``Kind/detour``). The store keeps the sums bounded (older legs weigh less:
/// ``Estimation/observationMemory(_:)``).
public struct AreaObservation: Hashable, Sendable {
    /// What is summed.
    public enum Kind: Int, Hashable, Sendable, CaseIterable {
        /// ``AreaObservation/amount`` is metres driven, ``AreaObservation/weight`` the metres
        /// of straight line they covered, in this area.
        case detour = 0
    }

    /// Side of an area in degrees of latitude and of longitude: about 1.1 km north–south and
    /// 0.9 km east–west at 37°, a neighbourhood whose streets are laid out alike (a grid, a
    /// hillside, a park to drive around).
    public static let size = 0.01

    /// What is summed.
    public var kind: Kind
    /// The area's number (``area(of:)``).
    public var area: Int64
    /// The sum observed (see ``Kind``).
    package var amount: Double
    /// What it was observed over (see ``Kind``).
    package var weight: Double
    /// The server time of the latest observation.
    package var updated: Timestamp

    /// Creates an observation from its sums.
    package init(kind: Kind, area: Int64, amount: Double, weight: Double, updated: Timestamp) {
        self.kind = kind
        self.area = area
        self.amount = amount
        self.weight = weight
        self.updated = updated
    }

    /// These sums with `leg` added, as every store adds one (the SQL stores in their upserts,
    /// with the same arithmetic): beyond `memory` of weight the sums are scaled down first, so
    /// the area follows its newer legs; an older leg does not move the time back.
    package func adding(_ leg: AreaObservation, memory: Double) -> AreaObservation {
        let scale = min(1, memory / max(weight, 1e-9))
        return AreaObservation(
            kind: kind, area: area, amount: amount * scale + leg.amount, weight: weight * scale + leg.weight, updated: max(updated, leg.updated))
    }

    /// The number of the area a place lies in: latitude row and longitude column, packed.
    public static func area(of location: LatLng) -> Int64 {
        let row = Int64(((location.latitude + 90) / size).rounded(.down))
        let column = Int64(((location.longitude + 180) / size).rounded(.down))
        return row << 20 | column
    }

    /// The areas the straight line from `a` to `b` crosses, each with the metres of the line in
    /// it (sampled every tenth of an area), in the order the line meets them.
    package static func areas(from a: LatLng, to b: LatLng) -> [(area: Int64, meters: Double)] {
        let length = Earth.distance(a, b)
        guard length > 0 else { return [(area(of: a), 0)] }
        let step = size * LocalPlane.metersPerDegree / 10
        let count = max(1, Int((length / step).rounded(.up)))
        var out: [(area: Int64, meters: Double)] = []
        for i in 0..<count {
            let middle = Earth.interpolate(a, b, fraction: (Double(i) + 0.5) / Double(count))
            let number = area(of: middle)
            if let index = out.firstIndex(where: { $0.area == number }) {
                out[index].meters += length / Double(count)
            } else {
                out.append((number, length / Double(count)))
            }
        }
        return out
    }
}
