import Foundation
import Navigation
import Raster
import Testing

@testable import Render

/// Pixel helpers: where an image is inked.
extension Image {
    /// Alpha at (x, y).
    func alpha(_ x: Int, _ y: Int) -> UInt8 { pixel(x: x, y: y).alpha }

    /// The straight colour at (x, y).
    func color(_ x: Int, _ y: Int) -> Color { pixel(x: x, y: y).unpremultiplied }

    /// Inked pixels (alpha above half) in the rectangle.
    func ink(x: Range<Int>, y: Range<Int>) -> Int {
        var count = 0
        for row in y { for column in x where alpha(column, row) > 127 { count += 1 } }
        return count
    }

    /// The image flipped left to right.
    func mirrored() -> [UInt8] {
        var out: [UInt8] = []
        for row in 0..<height { for column in (0..<width).reversed() { out.append(alpha(column, row)) } }
        return out
    }

    var alphas: [UInt8] {
        var out: [UInt8] = []
        for row in 0..<height { for column in 0..<width { out.append(alpha(column, row)) } }
        return out
    }
}

@Suite struct ManeuverIconTests {
    /// Every maneuver has an icon of the right size at each size and scale, inked but not
    /// filled, and no two maneuvers look the same (but unspecified ramps, drawn as the usual
    /// ramp that keeps right).
    @Test func allManeuversDrawDistinctIcons() throws {
        #expect(Maneuver.allCases.count == 66)
        let aliases: Set<[Maneuver]> = [[.onRampKeepRight, .onRampUnspecified], [.offRampKeepRight, .offRampUnspecified]]
        var seen: [[UInt8]: Maneuver] = [:]
        for maneuver in Maneuver.allCases {
            for size in ManeuverIconSize.allCases {
                for scale in ManeuverIcon.scales {
                    let image = ManeuverIcon.image(maneuver, size: size, scale: scale)
                    #expect(image.width == size.points * scale && image.height == image.width)
                }
            }
            let image = ManeuverIcon.image(maneuver, size: .square48)
            let inked = image.ink(x: 0..<48, y: 0..<48)
            #expect(inked > 48 * 48 / 20 && inked < 48 * 48 / 2, "\(maneuver) inks \(inked) pixels")
            if let twin = seen[image.alphas], !aliases.contains([maneuver, twin]) { Issue.record("\(maneuver) looks like \(twin)") }
            seen[image.alphas] = maneuver
        }
    }

    /// Left and right maneuvers are mirror images, and so are clockwise and counter-clockwise
    /// roundabouts with mirrored exits.
    @Test func leftIsMirroredRight() {
        let pairs: [(Maneuver, Maneuver)] = [
            (.turnLeft, .turnRight), (.turnSharpLeft, .turnSharpRight), (.forkLeft, .forkRight),
            (.mergeLeft, .mergeRight), (.offRampSlightLeft, .offRampSlightRight), (.destinationLeft, .destinationRight),
            (.turnUTurnCounterClockwise, .turnUTurnClockwise),
            (.roundaboutLeftClockwise, .roundaboutRightCounterClockwise),
            (.roundaboutStraightClockwise, .roundaboutStraightCounterClockwise),
        ]
        for (left, right) in pairs {
            #expect(
                ManeuverIcon.image(left, size: .square48).alphas == ManeuverIcon.image(right, size: .square48).mirrored(),
                "\(left) / \(right)")
        }
    }

    /// Arrows point where the maneuver goes: a right turn's head is on the right, a left
    /// turn's on the left; the destination flag stands on the named side of the road.
    @Test func arrowsPointTheRightWay() {
        func halves(_ maneuver: Maneuver) -> (left: Int, right: Int) {
            let image = ManeuverIcon.image(maneuver, size: .square48)
            return (image.ink(x: 0..<24, y: 0..<24), image.ink(x: 24..<48, y: 0..<24))
        }
        for maneuver in [Maneuver.turnRight, .turnSlightRight, .forkRight, .destinationRight, .roundaboutRightCounterClockwise] {
            let ink = halves(maneuver)
            #expect(ink.right > ink.left, "\(maneuver): \(ink)")
        }
        for maneuver in [Maneuver.turnLeft, .turnSlightLeft, .forkLeft, .destinationLeft, .roundaboutLeftClockwise] {
            let ink = halves(maneuver)
            #expect(ink.left > ink.right, "\(maneuver): \(ink)")
        }
    }

    /// A counter-clockwise roundabout to the left goes round by the right of the ring (the
    /// long way, as where traffic keeps right); the clockwise one takes the short way.
    @Test func roundaboutsCirculateTheRightWay() {
        // The ring's right-hand side (x 32–40 of 48, rows around the centre) is bold only
        // when the path runs along it.
        func rightSideInk(_ maneuver: Maneuver) -> Int {
            ManeuverIcon.image(maneuver, size: .square48).ink(x: 31..<38, y: 16..<28)
        }
        #expect(rightSideInk(.roundaboutLeftCounterClockwise) > 2 * rightSideInk(.roundaboutLeftClockwise))
        #expect(rightSideInk(.roundaboutRightCounterClockwise) > 2 * rightSideInk(.roundaboutRightClockwise) / 3)
    }

    /// Normal lighting draws dark on transparent, low light draws light.
    @Test func lighting() {
        let day = ManeuverIcon.image(.straight, size: .square48, lighting: .normal)
        let night = ManeuverIcon.image(.straight, size: .square48, lighting: .lowLight)
        let dayInk = day.color(24, 20)
        let nightInk = night.color(24, 20)
        #expect(dayInk.red < 64 && nightInk.red > 192)
        #expect(day.alpha(2, 2) == 0 && night.alpha(2, 2) == 0)
    }

    /// A lane image has a cell per lane; recommended directions are white, others grey.
    @Test func laneImage() throws {
        let lanes = [
            Lane(laneDirections: [LaneDirection(laneShape: .normalLeft, recommended: false)]),
            Lane(laneDirections: [
                LaneDirection(laneShape: .straight, recommended: true),
                LaneDirection(laneShape: .normalRight, recommended: false),
            ]),
            Lane(laneDirections: [LaneDirection(laneShape: .normalRight, recommended: true)]),
        ]
        let image = try #require(LaneImage.image(lanes, scale: 2))
        #expect(image.width == 3 * 96 && image.height == 96)
        // The straight arrow's shaft in the middle lane is white; the left lane's arrow grey.
        let middle = image.color(96 + 48, 70)
        #expect(middle == .white)
        var grey = 0
        for y in 0..<96 { for x in 0..<96 where image.color(x, y) == Color(red: 0x9A, green: 0xA0, blue: 0xA6) { grey += 1 } }
        #expect(grey > 100)
        #expect(LaneImage.image([]) == nil)
    }
}
