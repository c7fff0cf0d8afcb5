// A digest of everything that decides a preview's pixels apart from the style: the trip
// fields TripScene and PickupETA read, the options, the badge's text at the render time and
// the basemap drawn (its archive and style).
// Cheaper than encoding the trip, so a preview's ETag (with the style's own tag added) costs
// less than the GET trip it stands beside.

import Geo
import Styling
import TripModel

extension TripPreview {
    /// The digest of the trip's drawn content, the options and the ETA badge text.
    package var fingerprint: Fingerprint {
        var digest = Fingerprint()
        digest.add(trip.name)
        digest.add(trip.tripStatus.rawValue)
        digest.add(trip.pickupPoint?.point)
        digest.add(trip.dropoffPoint?.point)
        for stop in trip.intermediateDestinations { digest.add(stop.point) }
        digest.add(Double(trip.intermediateDestinationIndex ?? -1))
        digest.add(trip.lastLocation?.location)
        digest.add(trip.lastLocation?.heading.map(Double.init) ?? .nan)
        for waypoint in trip.remainingWaypoints {
            digest.add(waypoint.tripId ?? "-")
            digest.add(waypoint.waypointType?.rawValue ?? "-")
            digest.add(waypoint.location?.point)
            digest.add(waypoint.encodedPathToWaypoint ?? "-")
            digest.add(waypoint.trafficToWaypoint?.encodedPathToWaypoint ?? "-")
            for interval in waypoint.trafficToWaypoint?.speedReadingInterval ?? [] {
                digest.add(Double(interval.startPolylinePointIndex))
                digest.add(Double(interval.endPolylinePointIndex))
                digest.add(interval.speed.rawValue)
            }
            digest.add("|")
        }
        digest.add(options.canonicalText)
        digest.add(etaLabel ?? "-")
        // The archive and the style drawn (which the style sheet and lighting choose).
        digest.add(mapBasemap?.identity ?? "no basemap")
        return digest
    }
}

extension Fingerprint {
    /// Adds a number's bits.
    mutating func add(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { add($0) }
    }

    /// Adds a location (or a marker for none).
    mutating func add(_ point: LatLng?) {
        guard let point else { return add("none") }
        add(point.latitude)
        add(point.longitude)
    }
}
