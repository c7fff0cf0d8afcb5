/// The two requests the load client sends, encoded by hand from the field numbers of our
/// .proto files (Protos/maps/fleetengine/v1): the client needs no generated code, and the
/// bytes are what any protobuf library writes for these messages.
enum WireBytes {
    /// `UpdateVehicleRequest{name: 3, vehicle: 4 {last_location: 5 {location: 1 {latitude: 1,
    /// longitude: 2}}}, update_mask: 5 {paths: 1 ["last_location"]}}`.
    static func updateLocation(name: String, latitude: Double, longitude: Double) -> [UInt8] {
        var latLng: [UInt8] = []
        latLng.double(field: 1, latitude)
        latLng.double(field: 2, longitude)
        var location: [UInt8] = []
        location.message(field: 1, latLng)
        var vehicle: [UInt8] = []
        vehicle.message(field: 5, location)
        var mask: [UInt8] = []
        mask.string(field: 1, "last_location")
        var request: [UInt8] = []
        request.string(field: 3, name)
        request.message(field: 4, vehicle)
        request.message(field: 5, mask)
        return request
    }

    /// `GetTripRequest{name: 3, view: 11 = JOURNEY_SHARING_V1S (2)}`.
    static func getTrip(name: String) -> [UInt8] {
        var request: [UInt8] = []
        request.string(field: 3, name)
        request.varint(field: 11, 2)
        return request
    }
}

extension [UInt8] {
    fileprivate mutating func tag(_ field: Int, _ wireType: Int) { rawVarint(UInt64(field << 3 | wireType)) }

    fileprivate mutating func rawVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(value & 0x7f | 0x80))
            value >>= 7
        }
        append(UInt8(value))
    }

    fileprivate mutating func varint(field: Int, _ value: UInt64) {
        tag(field, 0)
        rawVarint(value)
    }

    fileprivate mutating func double(field: Int, _ value: Double) {
        tag(field, 1)
        Swift.withUnsafeBytes(of: value.bitPattern.littleEndian) { append(contentsOf: $0) }
    }

    fileprivate mutating func string(field: Int, _ value: String) { message(field: field, Array(value.utf8)) }

    fileprivate mutating func message(field: Int, _ bytes: [UInt8]) {
        tag(field, 2)
        rawVarint(UInt64(bytes.count))
        append(contentsOf: bytes)
    }
}
