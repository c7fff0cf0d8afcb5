import Testing
import TripModel

@Suite struct TripStatusTests {
    /// Every legal move of DESIGN §3, and nothing else, is allowed.
    @Test func stateMachine() {
        let legal: Set<[TripStatus]> = [
            [.new, .enrouteToPickup], [.enrouteToPickup, .arrivedAtPickup], [.arrivedAtPickup, .enrouteToDropoff],
            [.arrivedAtPickup, .enrouteToIntermediateDestination],
            [.enrouteToIntermediateDestination, .arrivedAtIntermediateDestination],
            [.arrivedAtIntermediateDestination, .enrouteToIntermediateDestination],
            [.arrivedAtIntermediateDestination, .enrouteToDropoff], [.enrouteToDropoff, .complete],
        ]
        let live: [TripStatus] = [
            .new, .enrouteToPickup, .arrivedAtPickup, .enrouteToIntermediateDestination,
            .arrivedAtIntermediateDestination, .enrouteToDropoff,
        ]
        for from in live {
            for to in TripStatus.allCases where to != .unknown {
                let expected = from == to || to == .canceled || legal.contains([from, to])
                #expect(from.canMove(to: to) == expected, "\(from.rawValue) → \(to.rawValue)")
            }
        }
    }

    /// Terminal statuses only stay as they are.
    @Test func terminal() {
        for from in [TripStatus.complete, .canceled] {
            for to in TripStatus.allCases {
                #expect(from.canMove(to: to) == (from == to))
            }
        }
    }
}
