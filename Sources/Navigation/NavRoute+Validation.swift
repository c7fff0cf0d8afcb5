// The rules a route must follow before a navigator takes it. Every input is bounded, and
// every error names the field path, so an HTTP 400 can say exactly what to fix.

import Geo

extension NavRoute {
    /// Upper bounds on a route's parts.
    public struct Limits: Hashable, Sendable {
        /// Most polyline points.
        package var maxPoints: Int
        /// Most steps.
        package var maxSteps: Int
        /// Most lanes at one step.
        package var maxLanesPerStep: Int
        /// Most directions on one lane.
        package var maxDirectionsPerLane: Int
        /// Most destinations.
        package var maxDestinations: Int
        /// Most speed-limit spans.
        package var maxSpeedLimits: Int
        /// Longest text field, in characters.
        package var maxTextLength: Int
        /// Longest text field in UTF-8 bytes: `maxTextLength` characters of up to 4 bytes
        /// (a character may carry any number of combining scalars, so characters alone do
        /// not bound a text's size).
        package var maxTextBytes: Int { maxTextLength * 4 }
        /// Most road features (traffic lights and stop signs).
        package var maxRoadFeatures: Int

        /// Most alternate routes: a driver's screen shows two at most (DESIGN §9).
        package static let maxAlternateRoutes = 2

        /// Creates limits; the defaults fit a continent-crossing route with room to spare.
        package init(
            maxPoints: Int = 1_000_000, maxSteps: Int = 50_000, maxLanesPerStep: Int = 16,
            maxDirectionsPerLane: Int = 8, maxDestinations: Int = 1_000,
            maxSpeedLimits: Int = 1_000_000, maxTextLength: Int = 1_024, maxRoadFeatures: Int = 1_000_000
        ) {
            self.maxPoints = maxPoints
            self.maxSteps = maxSteps
            self.maxLanesPerStep = maxLanesPerStep
            self.maxDirectionsPerLane = maxDirectionsPerLane
            self.maxDestinations = maxDestinations
            self.maxSpeedLimits = maxSpeedLimits
            self.maxTextLength = maxTextLength
            self.maxRoadFeatures = maxRoadFeatures
        }

        /// The defaults.
        public static let standard = Limits()
    }

    /// Checks the route and returns its decoded polyline points. Throws the first problem
    /// found, naming its field path: a polyline that does not decode or has fewer than two
    /// points, steps that are not numbered in order or whose spans do not chain from the
    /// first point forward, durations that do not match the segments, speed limits out of
    /// range or overlapping, destinations out of order or a final one that is not the
    /// polyline's last point, more than two alternate routes or one whose polyline or duration
    /// is unusable, road features off the polyline or out of order, and anything over `limits`.
    public func validate(limits: Limits = .standard) throws(NavRouteError) -> [LatLng] {
        // A polyline point takes at least 2 characters, so the string bounds the count.
        guard encodedPolyline.utf8.count <= limits.maxPoints * 24 else {
            throw NavRouteError(path: "encodedPolyline", message: "longer than \(limits.maxPoints) points")
        }
        let points: [LatLng]
        do {
            points = try EncodedPolyline.decode(encodedPolyline)
        } catch {
            throw NavRouteError(path: "encodedPolyline", message: error.description)
        }
        guard points.count >= 2 else {
            throw NavRouteError(path: "encodedPolyline", message: "needs at least 2 points, has \(points.count)")
        }
        guard points.count <= limits.maxPoints else {
            throw NavRouteError(
                path: "encodedPolyline", message: "has \(points.count) points, more than \(limits.maxPoints)")
        }
        if let bad = points.firstIndex(where: { !$0.isValid }) {
            throw NavRouteError(path: "encodedPolyline", message: "point \(bad) is not a valid latitude/longitude")
        }
        try validateSteps(pointCount: points.count, limits: limits)
        try validateDurations(segmentDurationsSeconds, name: "segmentDurationsSeconds", pointCount: points.count)
        try validateDurations(
            freeFlowSegmentDurationsSeconds, name: "freeFlowSegmentDurationsSeconds", pointCount: points.count)
        try validateSpeedLimits(pointCount: points.count, limits: limits)
        try validateDestinations(pointCount: points.count, limits: limits)
        try validateAlternateRoutes(limits: limits)
        try validateRoadFeatures(pointCount: points.count, limits: limits)
        return points
    }

    private func validateSteps(pointCount: Int, limits: Limits) throws(NavRouteError) {
        guard steps.count <= limits.maxSteps else {
            throw NavRouteError(path: "steps", message: "has \(steps.count) steps, more than \(limits.maxSteps)")
        }
        var previousEnd = 0
        for (i, step) in steps.enumerated() {
            let path = "steps[\(i)]"
            guard step.stepNumber == i else {
                throw NavRouteError(path: "\(path).stepNumber", message: "is \(step.stepNumber), expected \(i)")
            }
            guard step.polylineStartIndex == previousEnd else {
                throw NavRouteError(
                    path: "\(path).polylineStartIndex",
                    message: "is \(step.polylineStartIndex), expected \(previousEnd) (where the previous step ends)")
            }
            guard step.polylineEndIndex < pointCount else {
                throw NavRouteError(
                    path: "\(path).polylineEndIndex", message: "beyond the polyline's \(pointCount) points")
            }
            guard step.polylineEndIndex >= step.polylineStartIndex else {
                throw NavRouteError(path: "\(path).polylineEndIndex", message: "before polylineStartIndex")
            }
            previousEnd = step.polylineEndIndex
            guard step.roundaboutTurnNumber >= -1 else {
                throw NavRouteError(path: "\(path).roundaboutTurnNumber", message: "must be -1 or an exit number")
            }
            guard step.distanceFromPrevStepMeters.isFinite, step.distanceFromPrevStepMeters >= 0 else {
                throw NavRouteError(path: "\(path).distanceFromPrevStepMeters", message: "must be finite and >= 0")
            }
            guard step.timeFromPrevStepSeconds.isFinite, step.timeFromPrevStepSeconds >= 0 else {
                throw NavRouteError(path: "\(path).timeFromPrevStepSeconds", message: "must be finite and >= 0")
            }
            let texts = [
                ("fullRoadName", step.fullRoadName), ("simpleRoadName", step.simpleRoadName),
                ("fullInstructionText", step.fullInstructionText), ("exitNumber", step.exitNumber ?? ""),
            ]
            for (name, text) in texts where text.utf8.count > limits.maxTextBytes || text.count > limits.maxTextLength {
                throw NavRouteError(
                    path: "\(path).\(name)",
                    message: "longer than \(limits.maxTextLength) characters or \(limits.maxTextBytes) bytes in UTF-8")
            }
            guard step.lanes.count <= limits.maxLanesPerStep else {
                throw NavRouteError(path: "\(path).lanes", message: "more than \(limits.maxLanesPerStep) lanes")
            }
            for (l, lane) in step.lanes.enumerated() where lane.laneDirections.count > limits.maxDirectionsPerLane {
                throw NavRouteError(
                    path: "\(path).lanes[\(l)].laneDirections",
                    message: "more than \(limits.maxDirectionsPerLane) directions")
            }
        }
    }

    private func validateDurations(_ durations: [Double]?, name: String, pointCount: Int) throws(NavRouteError) {
        guard let durations else { return }
        guard durations.count == pointCount - 1 else {
            throw NavRouteError(
                path: name, message: "has \(durations.count) values, expected \(pointCount - 1) (one per segment)")
        }
        if let bad = durations.firstIndex(where: { !$0.isFinite || $0 < 0 }) {
            throw NavRouteError(path: "\(name)[\(bad)]", message: "must be finite and >= 0")
        }
    }

    private func validateSpeedLimits(pointCount: Int, limits: Limits) throws(NavRouteError) {
        guard let speedLimits else { return }
        guard speedLimits.count <= limits.maxSpeedLimits else {
            throw NavRouteError(path: "speedLimits", message: "more than \(limits.maxSpeedLimits) spans")
        }
        var previousEnd = 0
        for (i, span) in speedLimits.enumerated() {
            let path = "speedLimits[\(i)]"
            guard span.startPolylinePointIndex >= previousEnd else {
                throw NavRouteError(
                    path: "\(path).startPolylinePointIndex", message: "overlaps or precedes the previous span")
            }
            guard span.endPolylinePointIndex > span.startPolylinePointIndex else {
                throw NavRouteError(
                    path: "\(path).endPolylinePointIndex", message: "must be after startPolylinePointIndex")
            }
            guard span.endPolylinePointIndex < pointCount else {
                throw NavRouteError(
                    path: "\(path).endPolylinePointIndex", message: "beyond the polyline's \(pointCount) points")
            }
            guard span.speedLimitKph.isFinite, span.speedLimitKph > 0 else {
                throw NavRouteError(path: "\(path).speedLimitKph", message: "must be finite and > 0")
            }
            previousEnd = span.endPolylinePointIndex
        }
    }

    private func validateDestinations(pointCount: Int, limits: Limits) throws(NavRouteError) {
        guard !destinations.isEmpty else {
            throw NavRouteError(path: "destinations", message: "needs at least the final destination")
        }
        guard destinations.count <= limits.maxDestinations else {
            throw NavRouteError(path: "destinations", message: "more than \(limits.maxDestinations) destinations")
        }
        var previous = -1
        for (i, destination) in destinations.enumerated() {
            let path = "destinations[\(i)]"
            guard destination.location.isValid else {
                throw NavRouteError(path: "\(path).location", message: "not a valid latitude/longitude")
            }
            if let name = destination.name, name.utf8.count > limits.maxTextBytes || name.count > limits.maxTextLength {
                throw NavRouteError(
                    path: "\(path).name", message: "longer than \(limits.maxTextLength) characters or \(limits.maxTextBytes) bytes in UTF-8")
            }
            guard destination.polylinePointIndex > previous, destination.polylinePointIndex < pointCount else {
                throw NavRouteError(
                    path: "\(path).polylinePointIndex",
                    message: "must be after the previous destination and within the polyline's \(pointCount) points")
            }
            previous = destination.polylinePointIndex
        }
        guard previous == pointCount - 1 else {
            throw NavRouteError(
                path: "destinations[\(destinations.count - 1)].polylinePointIndex",
                message: "the final destination must be the polyline's last point (\(pointCount - 1))")
        }
    }

    private func validateAlternateRoutes(limits: Limits) throws(NavRouteError) {
        guard let alternateRoutes else { return }
        guard alternateRoutes.count <= Limits.maxAlternateRoutes else {
            throw NavRouteError(
                path: "alternateRoutes",
                message: "has \(alternateRoutes.count) routes; at most \(Limits.maxAlternateRoutes) are shown")
        }
        for (i, alternate) in alternateRoutes.enumerated() {
            let path = "alternateRoutes[\(i)]"
            guard alternate.encodedPolyline.utf8.count <= limits.maxPoints * 24 else {
                throw NavRouteError(path: "\(path).encodedPolyline", message: "longer than \(limits.maxPoints) points")
            }
            let points: [LatLng]
            do {
                points = try EncodedPolyline.decode(alternate.encodedPolyline)
            } catch {
                throw NavRouteError(path: "\(path).encodedPolyline", message: error.description)
            }
            guard points.count >= 2 else {
                throw NavRouteError(
                    path: "\(path).encodedPolyline", message: "needs at least 2 points, has \(points.count)")
            }
            if let bad = points.firstIndex(where: { !$0.isValid }) {
                throw NavRouteError(
                    path: "\(path).encodedPolyline", message: "point \(bad) is not a valid latitude/longitude")
            }
            guard alternate.durationSeconds.isFinite, alternate.durationSeconds >= 0 else {
                throw NavRouteError(path: "\(path).durationSeconds", message: "must be finite and >= 0")
            }
        }
    }

    private func validateRoadFeatures(pointCount: Int, limits: Limits) throws(NavRouteError) {
        guard let roadFeatures else { return }
        guard roadFeatures.count <= limits.maxRoadFeatures else {
            throw NavRouteError(path: "roadFeatures", message: "more than \(limits.maxRoadFeatures) features")
        }
        var previous = 0
        for (i, feature) in roadFeatures.enumerated() {
            guard feature.polylinePointIndex >= 0, feature.polylinePointIndex < pointCount else {
                throw NavRouteError(
                    path: "roadFeatures[\(i)].polylinePointIndex",
                    message: "is \(feature.polylinePointIndex), outside the polyline's \(pointCount) points")
            }
            guard feature.polylinePointIndex >= previous else {
                throw NavRouteError(
                    path: "roadFeatures[\(i)].polylinePointIndex",
                    message: "is \(feature.polylinePointIndex), before the previous feature's \(previous) (list them in route order)")
            }
            previous = feature.polylinePointIndex
        }
    }
}
