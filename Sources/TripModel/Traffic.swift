// Traffic on a route, in the two shapes Fleet Engine uses: riders get intervals by polyline
// vertex index (`ConsumableTrafficPolyline`), drivers send stretches by metres from the
// start of their route segment (`TrafficPolylineData`).

import JSON

/// A run of a polyline, by vertex index, with one traffic speed.
package struct SpeedReadingInterval: Codable, Hashable, Sendable {
    /// Index of the first vertex of the run.
    package var startPolylinePointIndex: Int
    /// Index of the last vertex of the run (the run covers the segments in between).
    package var endPolylinePointIndex: Int
    /// The traffic speed along the run.
    package var speed: TrafficSpeed

    /// Creates an interval.
    package init(startPolylinePointIndex: Int, endPolylinePointIndex: Int, speed: TrafficSpeed) {
        self.startPolylinePointIndex = startPolylinePointIndex
        self.endPolylinePointIndex = endPolylinePointIndex
        self.speed = speed
    }

    enum CodingKeys: String, CodingKey { case startPolylinePointIndex, endPolylinePointIndex, speed }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // proto3 JSON omits a zero start index.
        startPolylinePointIndex = try c.decodeIfSet(Int.self, forKey: .startPolylinePointIndex) ?? 0
        endPolylinePointIndex = try c.decode(Int.self, forKey: .endPolylinePointIndex)
        speed = try c.decodeIfSet(TrafficSpeed.self, forKey: .speed) ?? .unspecified
    }
}

/// Traffic along a path to a waypoint, as riders receive it.
package struct ConsumableTrafficPolyline: Codable, Hashable, Sendable {
    /// Runs of traffic speed along the path, in order; vertices not covered have no data.
    package var speedReadingInterval: [SpeedReadingInterval]
    /// The path the intervals index into (Google encoded polyline, precision 5).
    package var encodedPathToWaypoint: String?

    /// Creates a traffic polyline.
    package init(speedReadingInterval: [SpeedReadingInterval], encodedPathToWaypoint: String? = nil) {
        self.speedReadingInterval = speedReadingInterval
        self.encodedPathToWaypoint = encodedPathToWaypoint
    }

    enum CodingKeys: String, CodingKey { case speedReadingInterval, encodedPathToWaypoint }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        speedReadingInterval = try c.decodeArray(SpeedReadingInterval.self, forKey: .speedReadingInterval)
        encodedPathToWaypoint = try c.decodeIfSet(String.self, forKey: .encodedPathToWaypoint)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeNonEmpty(speedReadingInterval, forKey: .speedReadingInterval)
        try c.encodeIfSet(encodedPathToWaypoint, forKey: .encodedPathToWaypoint)
    }
}

/// A stretch of a driver's route segment with slower traffic, by metres from its start.
package struct RoadStretch: Codable, Hashable, Sendable {
    /// How congested the stretch is.
    package var style: RoadStretchStyle
    /// Metres from the start of the route segment to the start of the stretch.
    package var offsetMeters: Int
    /// Length of the stretch in metres.
    package var lengthMeters: Int

    /// Creates a stretch.
    package init(style: RoadStretchStyle, offsetMeters: Int, lengthMeters: Int) {
        self.style = style
        self.offsetMeters = offsetMeters
        self.lengthMeters = lengthMeters
    }

    enum CodingKeys: String, CodingKey { case style, offsetMeters, lengthMeters }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        style = try c.decodeIfSet(RoadStretchStyle.self, forKey: .style) ?? .unspecified
        offsetMeters = try c.decodeIfSet(Int.self, forKey: .offsetMeters) ?? 0
        lengthMeters = try c.decodeIfSet(Int.self, forKey: .lengthMeters) ?? 0
    }
}

/// Traffic along the vehicle's current route segment as the Driver SDK sends it
/// (`currentRouteSegmentTraffic`): stretches not listed flow normally.
package struct TrafficPolylineData: Codable, Hashable, Sendable {
    /// The rendering of the traffic.
    package var trafficRendering: Rendering

    /// Creates traffic data from stretches.
    package init(roadStretch: [RoadStretch]) { trafficRendering = Rendering(roadStretch: roadStretch) }

    /// `VisualTrafficReportPolylineRendering`: the slower stretches.
    package struct Rendering: Codable, Hashable, Sendable {
        /// Stretches with slower traffic, in order.
        package var roadStretch: [RoadStretch]

        /// Creates a rendering.
        package init(roadStretch: [RoadStretch]) { self.roadStretch = roadStretch }

        enum CodingKeys: String, CodingKey { case roadStretch }

        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            roadStretch = try c.decodeArray(RoadStretch.self, forKey: .roadStretch)
        }
    }

    enum CodingKeys: String, CodingKey { case trafficRendering }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        trafficRendering = try c.decodeIfSet(Rendering.self, forKey: .trafficRendering) ?? Rendering(roadStretch: [])
    }
}
