/// The coarse grid the SQLite store indexes vehicle positions by (migration 0008): cells of
/// 0.01 degree, about 1.1 km north to south. Numbers start at 0 at the south pole and the
/// antimeridian, so the migration's SQL computes the same cells with a plain CAST.
struct PositionCell: Equatable {
    static let perDegree = 100.0

    let latitude: Int
    let longitude: Int

    init(latitude: Double, longitude: Double) {
        self.latitude = Self.latitudeCell(latitude)
        self.longitude = Self.longitudeCell(longitude)
    }

    static func latitudeCell(_ latitude: Double) -> Int { Int(((latitude + 90) * perDegree).rounded(.down)) }
    static func longitudeCell(_ longitude: Double) -> Int { Int(((longitude + 180) * perDegree).rounded(.down)) }
}
