/// The coarse grid of the position index: cells of 0.01 degree, about 1.1 km north to south,
/// numbered from 0 at the south pole and the antimeridian (the SQLite store's grid).
enum PositionCell {
    static let perDegree = 100.0

    static func of(latitude: Double, longitude: Double) -> (latitude: Int, longitude: Int) {
        (latitudeCell(latitude), longitudeCell(longitude))
    }

    static func latitudeCell(_ latitude: Double) -> Int { Int(((latitude + 90) * perDegree).rounded(.down)) }
    static func longitudeCell(_ longitude: Double) -> Int { Int(((longitude + 180) * perDegree).rounded(.down)) }
}
