// One timed location of a vehicle: what the simulator yields and the trace readers read.

import Foundation
import Geo

/// A timed location, with what a phone reports alongside it.
public struct TracePoint: Hashable, Codable, Sendable {
    /// When.
    public var time: Date
    /// Where.
    public var location: LatLng
    /// Direction of travel, degrees clockwise from north, if known.
    public var heading: Double?
    /// Speed, m/s, if known.
    public var speedMetersPerSecond: Double?
    /// Horizontal accuracy, metres, if known.
    public var accuracyMeters: Double?
    /// The track the point belongs to, in files that hold several.
    package var trackID: String?

    /// Creates a point.
    package init(
        time: Date, location: LatLng, heading: Double? = nil, speedMetersPerSecond: Double? = nil,
        accuracyMeters: Double? = nil, trackID: String? = nil
    ) {
        self.time = time
        self.location = location
        self.heading = heading
        self.speedMetersPerSecond = speedMetersPerSecond
        self.accuracyMeters = accuracyMeters
        self.trackID = trackID
    }
}
