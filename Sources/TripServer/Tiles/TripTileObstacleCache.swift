import Caching
import Fleet
import Prometheus
import Render
import Styling
import TripModel
import TripStore

/// The obstacles of riders' map tiles (TripTileObstacles) by trip and style sheet, for the
/// trip revision and style version they were made from. A rider's page asks for a dozen tiles
/// at once and more at every pan, all of one revision: the key is made once per revision, and
/// a new revision whose key is the same (the car moved along its route) keeps the obstacles
/// already measured, view by view.
final class TripTileObstacleCache: Sendable {
    private struct Entry: Sendable {
        var revision: Revision
        var styleTag: String
        var obstacles: TripTileObstacles
    }

    private let entries: BoundedCache<String, Entry>
    /// Counts the keys made (a trip read at a revision not seen before).
    let keysMade: Counter
    /// Counts the label blocks whose obstacles were measured.
    let blocksMeasured: Counter

    /// At most `capacity` trips' obstacles kept.
    init(metrics: RequestMetrics, capacity: Int = 4_096) {
        entries = BoundedCache(capacity: capacity)
        keysMade = metrics.registry.makeCounter(
            descriptor: .init(
                metricName: "tripshare_share_map_keys_made", unitName: "total",
                helpText: "Trip map keys made for the share page's tiles (one per trip revision asked for)"))
        blocksMeasured = metrics.registry.makeCounter(
            descriptor: .init(
                metricName: "tripshare_share_tile_blocks_measured", unitName: "total",
                helpText: "Label blocks whose trip obstacles were measured for the share page's tiles"))
    }

    /// The obstacles of trip `name` with style sheet `sheet` at `revision` and `styleTag`,
    /// made by `make` (given the callback that counts measurements) when not kept.
    func obstacles(
        trip name: String, sheet: String, revision: Revision, styleTag: String,
        make: (_ measured: @escaping @Sendable () -> Void) -> TripTileObstacles
    ) -> TripTileObstacles {
        let key = "\(name)|\(sheet)"
        let kept = entries.value(forKey: key)
        if let kept, kept.revision == revision, kept.styleTag == styleTag { return kept.obstacles }
        let counter = blocksMeasured
        var made = make { counter.increment() }
        keysMade.increment()
        if let kept, kept.obstacles.key == made.key { made = kept.obstacles }
        entries.setValue(Entry(revision: revision, styleTag: styleTag, obstacles: made), forKey: key)
        return made
    }

    /// What the map tiles of `trip` (as stored) keep clear of, drawn with `style` (the style
    /// sheet asked for as `sheet`): kept for the trip's revision and the style's version. Which
    /// of the trip counts is Fleet's rule (``TripModel/Trip/riderMapOverlay``).
    func of(_ trip: Revisioned<Trip>, sheet: String?, style: StyleService.Style) -> TripTileObstacles {
        obstacles(trip: trip.value.name, sheet: sheet ?? "", revision: trip.revision, styleTag: style.tag) { measured in
            TripTileObstacles(trip: trip.value.riderMapOverlay, style: style.coordinator.styleSheet, styleTag: style.tag, measured: measured)
        }
    }
}
