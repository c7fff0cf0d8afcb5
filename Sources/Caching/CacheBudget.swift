// One memory budget for every per-item cache of a server process (`serve --cache-mb`), split
// between them by fixed shares (docs/operations.md, "Memory"). Each cache is bounded by the
// bytes its entries are estimated to hold, not by how many there are: a fleet of 50,000
// vehicles with short routes and one of 5,000 with long ones need the same memory for the
// same hit rate, and a count sized for a small fleet thrashes in a large one (issue 30: every
// rider's read decoded its trip, encoded its view and checked its token's signature anew once
// the fleet outgrew 20,000 entries).

/// The bytes a server's caches may hold, and each cache's share of them.
public struct CacheBudget: Sendable, Equatable, CustomStringConvertible {
    /// The whole budget, in bytes.
    package let bytes: Int

    /// The default: 256 MB, which keeps some 8,000 vehicles with their trips decoded; 40 MB
    /// keeps a server of 10,000 or 50,000 at about 100 MB resident, and costs rider reads
    /// several times the CPU once the fleet outgrows it (docs/operations.md, "Memory").
    public static let standard = CacheBudget(megabytes: 256)

    /// The largest budget `--cache-mb` accepts (64 GB).
    package static let maximumMegabytes = 65_536

    /// A budget of `megabytes` × 2²⁰ bytes (negative counts as 0).
    package init(megabytes: Int) { bytes = max(0, min(megabytes, Self.maximumMegabytes)) << 20 }

    /// A budget of exactly `bytes` (tests).
    package init(bytes: Int) { self.bytes = max(0, bytes) }

    /// Decoded vehicle rows (40%): read on every location update and every rider's read, and
    /// the dearest to decode again (the route's polyline and distances).
    package var decodedVehicles: Int { share(40) }
    /// Decoded trip rows (10%, less the lists below): a trip row holds no route, so it is small.
    package var decodedTrips: Int { share(10) - unfinishedTripLists }
    /// Each vehicle's list of unfinished trips, for SQLite's location updates worked out
    /// before the writer (an eighth of the trips' share; an entry is some 150 bytes).
    package var unfinishedTripLists: Int { share(10) / 8 }
    /// Trips as riders read them, composed with their vehicle's live fields (10%): composing
    /// a trip from its decoded rows again costs little beside decoding them.
    package var composedTrips: Int { share(10) }
    /// The JSON of REST trip views (10%).
    package var encodedViews: Int { share(10) }
    /// The protobuf encoding of gRPC trip views (5%): most riders read over REST.
    package var messageViews: Int { share(5) }
    /// Verified bearer tokens (10%): a miss costs a signature check, about 600 bytes a token.
    package var verifiedTokens: Int { share(10) }
    /// SQLite's page cache, over all of the store's connections (15%); on PostgreSQL, whose
    /// pages the database server caches, this share is left unused.
    package var databasePages: Int { share(15) }

    private func share(_ percent: Int) -> Int { bytes / 100 * percent }

    /// The budget in megabytes, for messages.
    public var description: String { "\(bytes >> 20) MB" }
}
