import Geo

/// A vehicle's drive since it last stood still (a standstill: longer than
/// ``Estimation/standstillSeconds`` within ``Estimation/setOffMeters``), for the detour the
/// fleet learns from every drive, not only from ways to stops (``AreaObservation``): where it
/// set off, how far it drove, and where and since when it has been standing. Kept with the
/// vehicle's tracking state.
public struct DriveTravel: Codable, Hashable, Sendable {
    /// Where the vehicle stood before it set off.
    package var origin: LatLng
    /// Metres between its fixes since.
    package var drivenMeters: Double
    /// Where the vehicle has stayed (within ``Estimation/setOffMeters``) since ``stillSince``.
    package var still: LatLng
    /// The time of the first fix at ``still``.
    package var stillSince: Timestamp
    /// A leg to a stop taught this drive's way already (``LegTravel``): it teaches nothing more.
    package var taught: Bool

    /// A drive from `origin`, where the vehicle is at `time`.
    package init(origin: LatLng, time: Timestamp) {
        self.origin = origin
        drivenMeters = 0
        still = origin
        stillSince = time
        taught = false
    }

    /// Whether the vehicle has stood long enough at ``still`` to call it a standstill at `time`.
    package func standsStill(at time: Timestamp) -> Bool {
        time.seconds(since: stillSince) >= Estimation.standstillSeconds
    }
}
