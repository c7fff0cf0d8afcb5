// The stretch of a route last decoded for a vehicle, kept for its next updates (issue 30): a
// vehicle moves some metres between two updates, so the stretch decoded for one holds the next
// ones' windows, and decoding and measuring a stretch anew on every update cost some 25 us,
// more than the rest of tracking.

import Synchronization

/// A stretch of one ``MeasuredPolyline`` kept between updates of the vehicle on it. Every
/// stretch of the line holds the whole line's points and distances, so whichever stretch is
/// kept, an answer found on it is the answer on a fresh one; the kept one is only used where it
/// holds what is asked, and a tracker on it still checks it did not run off its ends.
package final class KeptStretch: Sendable {
    private let stretch = Mutex<PolylineMeasure?>(nil)

    /// Nothing kept yet.
    package init() {}

    /// For `line`, holding `whole` (its whole measure, just decoded) where a short line is kept
    /// whole anyway.
    package init(for line: MeasuredPolyline, whole: PolylineMeasure) {
        if line.keptWhole(PolylineTracker.Configuration()) { keep(whole) }
    }

    /// The stretch kept, if any.
    package var current: PolylineMeasure? { stretch.withLock { $0 } }

    /// Keeps `measure` in place of what was kept.
    func keep(_ measure: PolylineMeasure) { stretch.withLock { $0 = measure } }
}

extension PolylineMeasure {
    /// Whether this (a stretch of a line) holds every point from `from` to `through` metres and
    /// the segment after it, as ``MeasuredPolyline/stretch(from:through:)`` would.
    package func holds(from: Double, through: Double) -> Bool {
        (firstIndex == 0 || cumulativeMeters[0] <= from) && (reachesEnd || totalMeters > through)
    }
}
