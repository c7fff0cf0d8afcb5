// Digests of everything that decides a screen's or a card's pixels apart from the route and
// the style (whose versions the caller adds): what the drawing reads from the NavInfo (not
// the whole list of remaining steps), the vehicle, the settings and the options. The clock
// counts only as the arrival time it makes (to the minute), so a screen asked for every few
// seconds keeps its digest while nothing drawn moves. Equal digests, equal pictures: an HTTP
// layer can answer `If-None-Match` without drawing.

import Geo
import JSON
import Navigation
import Styling
import TripModel

extension NavigationScreen {
    /// The digest of the inputs the screen draws from, but the route and the style.
    package var fingerprint: Fingerprint {
        var digest = Fingerprint()
        digest.addDrawn(navInfo, nextStep: true)
        digest.add(arrived ? "arrived" : "-")
        digest.add(stop.map { "\($0.key) \($0.place ?? "")" } ?? "-")
        digest.add(vehicle?.location)
        digest.add(vehicle?.heading ?? .nan)
        digest.add(vehicle?.speedMetersPerSecond ?? .nan)
        digest.add((try? JSONStreamEncoder().encode(settings.jsonValue)) ?? [])
        digest.add(speedAlertThresholds.minorKph)
        digest.add(speedAlertThresholds.majorKph)
        digest.add(options.canonicalTextWithoutClock)
        digest.add(NavigationText.clock(options.at, plus: navInfo.timeToNextDestinationSeconds, zone: options.timeZone, units: options.units))
        digest.add(underlay.map { "underlay \($0.identity)" } ?? "plain")
        if let traffic {
            for speed in traffic.speeds { digest.add(speed.rawValue) }
        }
        return digest
    }
}

extension TurnCard {
    /// The digest of the inputs the card draws from.
    package var fingerprint: Fingerprint {
        var digest = Fingerprint()
        digest.addDrawn(navInfo, nextStep: false)
        digest.add(arrived ? "arrived" : "-")
        digest.add(options.canonicalTextWithoutClock)
        digest.add(NavigationText.clock(options.at, plus: navInfo.timeToNextDestinationSeconds, zone: options.timeZone, units: options.units))
        return digest
    }
}

extension Fingerprint {
    /// Adds what the screen and card read from a NavInfo.
    mutating func addDrawn(_ info: NavInfo, nextStep: Bool) {
        add(info.navState.rawValue)
        add(info.currentStep)
        if nextStep { add(info.remainingSteps.first) }
        for value in [
            info.distanceToCurrentStepMeters, info.distanceToNextDestinationMeters, info.timeToNextDestinationSeconds,
            info.distanceToFinalDestinationMeters, info.currentSpeedMetersPerSecond ?? .nan, info.currentSpeedLimitKph ?? .nan,
        ] {
            add(value)
        }
        add(info.delayCategory.rawValue)
        add(info.suggestedLightingMode.rawValue)
    }

    /// Adds a step's drawn fields (or a marker for none).
    mutating func add(_ step: StepInfo?) {
        guard let step else { return add("no step") }
        add(Double(step.stepNumber))
        add(step.maneuver.rawValue)
        add(step.simpleRoadName)
        add(step.fullRoadName)
        add(step.fullInstructionText)
        add(Double(step.roundaboutTurnNumber))
        add(step.distanceFromPrevStepMeters)
        for lane in step.lanes {
            for direction in lane.laneDirections { add("\(direction.laneShape.rawValue):\(direction.recommended)") }
            add("|")
        }
    }
}
