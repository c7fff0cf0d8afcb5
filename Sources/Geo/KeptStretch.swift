// The stretch of a route last decoded for a vehicle, kept for its next updates (issue 30): a
// vehicle moves some metres between two updates, so the stretch decoded for one holds the next
// ones' windows, and decoding and measuring a stretch anew on every update cost some 25 us,
// more than the rest of tracking.
//
// Only the stretch's distances are kept. Its points are decoded again from the line's encoding
// when asked for: that costs no trigonometry (the distances' haversines were most of a
// stretch's price), and a kept stretch is a third of the bytes it was. A decoded vehicle is
// mostly its kept stretch, so the cache pool holds twice as many of them (stop 53); a full pool
// holds vehicles without one (`TripStore/DecodedRowCaches`, stop 57).

import Synchronization

/// A stretch of one ``MeasuredPolyline`` kept between updates of the vehicle on it. Every
/// stretch of the line holds the whole line's points and distances, so whichever stretch is
/// kept, an answer found on it is the answer on a fresh one; the kept one is only used where it
/// holds what is asked, and a tracker on it still checks it did not run off its ends.
package final class KeptStretch: Sendable {
    /// What is kept of a stretch: where it starts on the line, its points' distances from the
    /// line's start, and whether it runs to the line's end.
    private struct Distances {
        let firstIndex: Int
        let meters: [Double]
        let reachesEnd: Bool

        /// Whether the stretch holds every point from `from` to `through` metres and the
        /// segment after it, as ``MeasuredPolyline/stretch(from:through:)`` would.
        func holds(from: Double, through: Double) -> Bool {
            (firstIndex == 0 || meters[0] <= from) && (reachesEnd || meters[meters.count - 1] > through)
        }

        /// The stretch, its points decoded again from `line` (the line it was kept for).
        func stretch(on line: MeasuredPolyline) -> PolylineMeasure? {
            line.stretch(firstIndex: firstIndex, meters: meters, reachesEnd: reachesEnd)
        }
    }

    private let kept = Mutex<Distances?>(nil)

    /// Nothing kept yet.
    package init() {}

    /// For `line`, holding `whole` (its whole measure, just decoded) where a short line is kept
    /// whole anyway.
    package init(for line: MeasuredPolyline, whole: PolylineMeasure) {
        if line.keptWhole(PolylineTracker.Configuration()) { keep(whole) }
    }

    /// The stretch kept, if any, with its points decoded from `line` (the line it was kept for).
    package func stretch(of line: MeasuredPolyline) -> PolylineMeasure? {
        kept.withLock { $0 }?.stretch(on: line)
    }

    /// ``stretch(of:)``, where it holds every point from `from` to `through` metres and the
    /// segment after it; nil otherwise.
    package func stretch(of line: MeasuredPolyline, holding from: Double, through: Double) -> PolylineMeasure? {
        guard let distances = kept.withLock({ $0 }), distances.holds(from: from, through: through) else { return nil }
        return distances.stretch(on: line)
    }

    /// The whole line's measure, where the stretch kept is the whole line (the one that holds
    /// every point).
    package func wholeLine(of line: MeasuredPolyline) -> PolylineMeasure? {
        stretch(of: line, holding: -.infinity, through: .infinity)
    }

    /// Keeps `measure`'s distances in place of what was kept.
    func keep(_ measure: PolylineMeasure) {
        let distances = Distances(firstIndex: measure.firstIndex, meters: measure.cumulativeMeters, reachesEnd: measure.reachesEnd)
        kept.withLock { $0 = distances }
    }
}
