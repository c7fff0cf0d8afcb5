import Geo

// Checks of client input beyond its JSON shape: ranges, lengths, and the bounds of
// ``Limits``. Each failure names the field path.

enum Check {
    static func latLng(_ p: LatLng, _ path: String) throws(StatusError) {
        guard p.latitude.isFinite, (-90.0...90.0).contains(p.latitude) else {
            throw .invalid("\(path).latitude", "\(p.latitude) is out of range [-90, 90]")
        }
        guard p.longitude.isFinite, (-180.0...180.0).contains(p.longitude) else {
            throw .invalid("\(path).longitude", "\(p.longitude) is out of range [-180, 180]")
        }
    }

    static func finite(_ value: Double?, _ path: String, range: ClosedRange<Double>? = nil) throws(StatusError) {
        guard let value else { return }
        guard value.isFinite else { throw .invalid(path, "must be a finite number") }
        if let range, !range.contains(value) {
            throw .invalid(path, "\(value) is out of range [\(range.lowerBound), \(range.upperBound)]")
        }
    }

    static func integer(_ value: Int?, _ path: String, _ range: ClosedRange<Int>) throws(StatusError) {
        guard let value else { return }
        if !range.contains(value) { throw .invalid(path, "\(value) is out of range [\(range.lowerBound), \(range.upperBound)]") }
    }

    /// A string of at most `characters` characters and `bytes` UTF-8 bytes.
    static func text(_ value: String, _ path: String, characters: Int, bytes: Int) throws(StatusError) {
        // Bytes first: counting characters walks the whole string.
        if value.utf8.count > bytes { throw .invalid(path, "must be at most \(bytes) bytes in UTF-8, got \(value.utf8.count)") }
        if value.count > characters { throw .invalid(path, "must be at most \(characters) characters") }
    }

    static func count<C: Collection>(_ values: C, _ path: String, max: Int) throws(StatusError) {
        if values.count > max { throw .invalid(path, "has \(values.count) entries; at most \(max) are allowed") }
    }

    static func attributes(_ attributes: [Attribute], _ path: String) throws(StatusError) {
        try count(attributes, path, max: Limits.maximumAttributes)
        var keys = Set<String>()
        for (i, attribute) in attributes.enumerated() {
            let here = "\(path)[\(i)]"
            if attribute.key.isEmpty { throw .invalid("\(here).key", "must not be empty") }
            try text(attribute.key, "\(here).key", characters: Limits.maximumAttributeLength, bytes: Limits.maximumAttributeBytes)
            if attribute.key.contains(":") { throw .invalid("\(here).key", "must not contain ':'") }
            if !keys.insert(attribute.key).inserted { throw .invalid("\(here).key", "'\(attribute.key)' is repeated") }
            let values = [attribute.stringValue != nil, attribute.boolValue != nil, attribute.numberValue != nil].filter { $0 }.count
            if values != 1 { throw .invalid(here, "exactly one of stringValue, boolValue, numberValue must be set") }
            if let s = attribute.stringValue {
                try text(s, "\(here).stringValue", characters: Limits.maximumAttributeLength, bytes: Limits.maximumAttributeBytes)
            }
            try finite(attribute.numberValue, "\(here).numberValue")
        }
    }

    static func terminal(_ location: TerminalLocation?, _ path: String) throws(StatusError) {
        guard let location else { return }
        try latLng(location.point, "\(path).point")
    }

    static func location(_ location: VehicleLocation?, _ path: String) throws(StatusError) {
        guard let location else { return }
        guard let point = location.location else { throw .invalid("\(path).location", "required field is missing") }
        try latLng(point, "\(path).location")
        if let raw = location.rawLocation { try latLng(raw, "\(path).rawLocation") }
        try finite(location.heading, "\(path).heading", range: 0...360)
        // Real devices report small negative speeds (GPS noise, reversing); accept them.
        try finite(location.speed, "\(path).speed", range: -200...200)
        try finite(location.latlngAccuracy, "\(path).latlngAccuracy", range: 0...1e7)
        try finite(location.headingAccuracy, "\(path).headingAccuracy", range: 0...360)
        try finite(location.altitude, "\(path).altitude", range: -1e5...1e5)
        try finite(location.altitudeAccuracy, "\(path).altitudeAccuracy", range: 0...1e7)
        try finite(location.speedAccuracy, "\(path).speedAccuracy", range: 0...1e4)
        try finite(location.rawLocationAccuracy, "\(path).rawLocationAccuracy", range: 0...1e7)
    }

    static func traffic(_ traffic: TrafficPolylineData?, _ path: String) throws(StatusError) {
        guard let stretches = traffic?.trafficRendering.roadStretch else { return }
        let here = "\(path).trafficRendering.roadStretch"
        try count(stretches, here, max: Limits.maximumRoadStretches)
        for (i, stretch) in stretches.enumerated() {
            try integer(stretch.offsetMeters, "\(here)[\(i)].offsetMeters", 0...100_000_000)
            try integer(stretch.lengthMeters, "\(here)[\(i)].lengthMeters", 0...100_000_000)
        }
    }

    static func waypoint(_ waypoint: TripWaypoint, _ path: String) throws(StatusError) {
        if let tripId = waypoint.tripId { try ResourceName.validateID(tripId, field: "\(path).tripId") }
        try terminal(waypoint.location, "\(path).location")
        if let encoded = waypoint.encodedPathToWaypoint, !encoded.isEmpty {
            _ = try RouteGeometry.decode(encoded, path: "\(path).encodedPathToWaypoint")
        }
        try integer(waypoint.distanceMeters, "\(path).distanceMeters", 0...100_000_000)
    }
}
