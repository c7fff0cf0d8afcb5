// What each of the 66 maneuvers looks like. Right-hand and counter-clockwise shapes are
// drawn; their left and clockwise twins are mirror images (see Glyph.mirrored()).

import Foundation
import Navigation
import Raster

/// The drawings of the maneuvers and lane directions.
enum ManeuverGlyphs {
    /// How a turn bends.
    enum Bend {
        case straight, keep, slight, normal, sharp, uTurn
    }

    /// The glyph of a maneuver.
    static func glyph(_ maneuver: Maneuver) -> Glyph {
        switch maneuver {
        case .unknown: return unknown()
        case .depart: return depart()
        case .destination: return destination()
        case .destinationLeft: return destinationRight().mirrored()
        case .destinationRight: return destinationRight()
        case .straight: return turn(.straight)
        case .nameChange: return nameChange()
        case .turnLeft: return turn(.normal).mirrored()
        case .turnRight: return turn(.normal)
        case .turnKeepLeft: return turn(.keep).mirrored()
        case .turnKeepRight: return turn(.keep)
        case .turnSlightLeft: return turn(.slight).mirrored()
        case .turnSlightRight: return turn(.slight)
        case .turnSharpLeft: return turn(.sharp).mirrored()
        case .turnSharpRight: return turn(.sharp)
        // A clockwise U-turn goes round to the right; counter-clockwise to the left.
        case .turnUTurnClockwise: return turn(.uTurn)
        case .turnUTurnCounterClockwise: return turn(.uTurn).mirrored()
        case .mergeUnspecified: return mergeUnspecified()
        case .mergeLeft: return mergeLeft()
        case .mergeRight: return mergeLeft().mirrored()
        case .forkLeft: return forkRight().mirrored()
        case .forkRight: return forkRight()
        // An unspecified ramp is drawn as the usual one, keeping right.
        case .onRampUnspecified: return ramp(.keep, on: true)
        case .onRampLeft: return ramp(.normal, on: true).mirrored()
        case .onRampRight: return ramp(.normal, on: true)
        case .onRampKeepLeft: return ramp(.keep, on: true).mirrored()
        case .onRampKeepRight: return ramp(.keep, on: true)
        case .onRampSlightLeft: return ramp(.slight, on: true).mirrored()
        case .onRampSlightRight: return ramp(.slight, on: true)
        case .onRampSharpLeft: return ramp(.sharp, on: true).mirrored()
        case .onRampSharpRight: return ramp(.sharp, on: true)
        case .onRampUTurnClockwise: return ramp(.uTurn, on: true)
        case .onRampUTurnCounterClockwise: return ramp(.uTurn, on: true).mirrored()
        case .offRampUnspecified: return ramp(.keep, on: false)
        case .offRampLeft: return ramp(.normal, on: false).mirrored()
        case .offRampRight: return ramp(.normal, on: false)
        case .offRampKeepLeft: return ramp(.keep, on: false).mirrored()
        case .offRampKeepRight: return ramp(.keep, on: false)
        case .offRampSlightLeft: return ramp(.slight, on: false).mirrored()
        case .offRampSlightRight: return ramp(.slight, on: false)
        case .offRampSharpLeft: return ramp(.sharp, on: false).mirrored()
        case .offRampSharpRight: return ramp(.sharp, on: false)
        case .offRampUTurnClockwise: return ramp(.uTurn, on: false)
        case .offRampUTurnCounterClockwise: return ramp(.uTurn, on: false).mirrored()
        case .roundaboutCounterClockwise: return roundabout(exitTurn: nil)
        case .roundaboutClockwise: return roundabout(exitTurn: nil).mirrored()
        case .roundaboutStraightCounterClockwise: return roundabout(exitTurn: 0)
        case .roundaboutStraightClockwise: return roundabout(exitTurn: 0).mirrored()
        case .roundaboutLeftCounterClockwise: return roundabout(exitTurn: -90)
        case .roundaboutLeftClockwise: return roundabout(exitTurn: 90).mirrored()
        case .roundaboutRightCounterClockwise: return roundabout(exitTurn: 90)
        case .roundaboutRightClockwise: return roundabout(exitTurn: -90).mirrored()
        case .roundaboutSlightLeftCounterClockwise: return roundabout(exitTurn: -45)
        case .roundaboutSlightLeftClockwise: return roundabout(exitTurn: 45).mirrored()
        case .roundaboutSlightRightCounterClockwise: return roundabout(exitTurn: 45)
        case .roundaboutSlightRightClockwise: return roundabout(exitTurn: -45).mirrored()
        case .roundaboutSharpLeftCounterClockwise: return roundabout(exitTurn: -135)
        case .roundaboutSharpLeftClockwise: return roundabout(exitTurn: 135).mirrored()
        case .roundaboutSharpRightCounterClockwise: return roundabout(exitTurn: 135)
        case .roundaboutSharpRightClockwise: return roundabout(exitTurn: -135).mirrored()
        case .roundaboutUTurnCounterClockwise: return roundabout(exitTurn: 180)
        case .roundaboutUTurnClockwise: return roundabout(exitTurn: 180).mirrored()
        case .roundaboutExitCounterClockwise: return roundaboutExit()
        case .roundaboutExitClockwise: return roundaboutExit().mirrored()
        case .ferryBoat: return ferryBoat()
        case .ferryTrain: return ferryTrain()
        }
    }

    /// The arrow of a lane direction. All start from the same stem in the middle of the lane,
    /// so that a lane's several directions read as one forked arrow.
    static func glyph(_ shape: LaneShape) -> Glyph {
        switch shape {
        case .unknown, .straight: laneArrow(.straight)
        case .slightLeft: laneArrow(.slight).mirrored()
        case .slightRight: laneArrow(.slight)
        case .normalLeft: laneArrow(.normal).mirrored()
        case .normalRight: laneArrow(.normal)
        case .sharpLeft: laneArrow(.sharp).mirrored()
        case .sharpRight: laneArrow(.sharp)
        case .uTurnLeft: laneArrow(.uTurn).mirrored()
        case .uTurnRight: laneArrow(.uTurn)
        }
    }

    static func laneArrow(_ bend: Bend) -> Glyph {
        let start = Point(x: 12, y: 23)
        let t: Turtle
        switch bend {
        case .straight, .keep: t = shaft(from: start, lead: 13)
        case .slight: t = shaft(from: start, lead: 8, turns: [(45, 5)], tail: 1.5)
        case .normal: t = shaft(from: start, lead: 8, turns: [(90, 4)], tail: 0.5)
        case .sharp: t = shaft(from: start, lead: 11, turns: [(135, 3)], tail: 0.5)
        case .uTurn: t = shaft(from: start, lead: 10, turns: [(180, 3.5)], tail: 0.5)
        }
        var glyph = Glyph()
        glyph.add(t.arrow(headLength: 4.5, headHalfWidth: 4))
        return glyph
    }

    /// A shaft heading up from `start`: `lead` units, then each turn (degrees, radius), then
    /// `tail` units.
    static func shaft(
        from start: Point, lead: Double, turns: [(angle: Double, radius: Double)] = [],
        tail: Double = 0
    ) -> Turtle {
        var t = Turtle(at: start)
        t.forward(lead)
        for turn in turns { t.turn(turn.angle, radius: turn.radius) }
        if tail > 0 { t.forward(tail) }
        return t
    }

    // MARK: - Turns

    /// The arrow of a right-hand bend (straight up for `.straight`).
    static func turnArrow(_ bend: Bend) -> Turtle {
        switch bend {
        case .straight: shaft(from: Point(x: 12, y: 22), lead: 12)
        case .keep: shaft(from: Point(x: 9, y: 22), lead: 6, turns: [(40, 5), (-40, 5)], tail: 0.5)
        case .slight: shaft(from: Point(x: 9, y: 22), lead: 7, turns: [(45, 5)], tail: 3)
        case .normal: shaft(from: Point(x: 7, y: 22), lead: 7, turns: [(90, 4.5)], tail: 3)
        case .sharp: shaft(from: Point(x: 7, y: 22), lead: 11, turns: [(135, 3.5)], tail: 2.5)
        case .uTurn: shaft(from: Point(x: 7, y: 22), lead: 10, turns: [(180, 4.5)], tail: 2)
        }
    }

    static func turn(_ bend: Bend) -> Glyph {
        var glyph = Glyph()
        let arrow = turnArrow(bend)
        if bend == .keep {
            // Keeping right: the road straight on is the one not taken.
            glyph.line([Point(x: 9, y: 16), Point(x: 9, y: 3)])
        }
        glyph.add(arrow.arrow())
        return glyph
    }

    static func nameChange() -> Glyph {
        var glyph = turn(.straight)
        // Where the road's name changes: a bar across it.
        glyph.line([Point(x: 6, y: 15), Point(x: 18, y: 15)], width: 2)
        return glyph
    }

    static func depart() -> Glyph {
        var glyph = Glyph()
        var t = Turtle(at: Point(x: 12, y: 17))
        t.forward(7)
        glyph.add(t.arrow())
        glyph.fill([circle(center: Point(x: 12, y: 19.5), radius: 2.8)])
        return glyph
    }

    static func unknown() -> Glyph {
        var glyph = Glyph()
        glyph.fill([circle(center: Point(x: 12, y: 12), radius: 8), circle(center: Point(x: 12, y: 12), radius: 5.5)])
        glyph.fill([circle(center: Point(x: 12, y: 12), radius: 2)])
        return glyph
    }

    // MARK: - Merges and forks

    /// Joining the road on the left from the right.
    static func mergeLeft() -> Glyph {
        var glyph = Glyph()
        glyph.line([Point(x: 8, y: 23), Point(x: 8, y: 2)])
        var t = Turtle(at: Point(x: 16, y: 23))
        t.forward(2)
        t.turn(-45, radius: 5)
        t.forward(7.2)
        t.turn(45, radius: 5)
        glyph.add(t.arrow())
        return glyph
    }

    static func mergeUnspecified() -> Glyph {
        var glyph = Glyph()
        glyph.line([Point(x: 4, y: 23), Point(x: 12, y: 13)])
        glyph.line([Point(x: 20, y: 23), Point(x: 12, y: 13)])
        glyph.add(turnArrow(.straight).arrow())
        return glyph
    }

    static func forkRight() -> Glyph {
        var glyph = Glyph()
        var stem = Turtle(at: Point(x: 12, y: 22))
        stem.forward(6)
        var left = stem
        left.turn(-40, radius: 5)
        left.forward(5)
        glyph.line(left.points)
        var right = stem
        right.turn(40, radius: 5)
        right.forward(2.5)
        glyph.add(right.arrow())
        return glyph
    }

    // MARK: - Ramps

    /// A ramp: the bend, over the highway it leaves (off) or joins (on) in the secondary tone.
    static func ramp(_ bend: Bend, on: Bool) -> Glyph {
        var glyph = Glyph()
        let arrow = turnArrow(bend)
        let highway: [Point]
        if on {
            // The highway runs along where the ramp ends.
            let end = arrow.position
            let d = Turtle.direction(arrow.heading)
            highway = [Point(x: end.x - d.x * 9, y: end.y - d.y * 9), Point(x: end.x + d.x * 9, y: end.y + d.y * 9)]
        } else {
            // The highway carries on straight from where the ramp leaves it.
            let start = arrow.points[0]
            highway = [Point(x: start.x, y: 24), Point(x: start.x, y: 1)]
        }
        glyph.line(highway, width: 6.5)
        glyph.add(arrow.arrow())
        return glyph
    }

    // MARK: - Roundabouts (drawn counter-clockwise, as where traffic keeps right)

    static let ringCenter = Point(x: 12, y: 11)
    static let ringRadius = 4.5

    static func ringPoint(_ degrees: Double) -> Point {
        let a = degrees * .pi / 180
        return Point(x: ringCenter.x + ringRadius * cos(a), y: ringCenter.y + ringRadius * sin(a))
    }

    /// Screen angles (degrees, y down: 90 is the ring's bottom) from `start` through `sweep`.
    static func ringArc(from start: Double, sweep: Double) -> [Point] {
        let steps = max(2, Int(abs(sweep) / 5))
        return (0...steps).map { ringPoint(start + sweep * Double($0) / Double(steps)) }
    }

    static func ring() -> [Point] { ringArc(from: 0, sweep: 360) }

    /// Entering at the bottom and going counter-clockwise to the exit `exitTurn` degrees
    /// right of straight on (nil: no exit, the circulation only).
    static func roundabout(exitTurn: Double?) -> Glyph {
        var glyph = Glyph()
        glyph.line(ring(), width: 2.5)
        var points = [Point(x: 12, y: 23), ringPoint(90)]
        guard let exitTurn else {
            // Three quarters round, the head along the ring (counter-clockwise at the left
            // of the ring is downwards).
            points += ringArc(from: 90, sweep: -270).dropFirst()
            glyph.add(Arrow(points: points, direction: Point(x: 0, y: 1), headLength: 4, headHalfWidth: 4))
            return glyph
        }
        if exitTurn == 180 {
            // A U-turn: in at the right of the ring's foot, all the way round, and out at
            // its left, back down beside the way in.
            var points = [Point(x: ringPoint(60).x, y: 23)] + ringArc(from: 60, sweep: -300)
            points.append(Point(x: ringPoint(120).x, y: 17))
            glyph.add(Arrow(points: points, direction: Point(x: 0, y: 1), headLength: 4, headHalfWidth: 3.3))
            return glyph
        }
        // Exit angle on screen: straight on leaves at the top (−90°), a right turn at the
        // right (0°).
        let exit = exitTurn - 90
        var sweep = exit - 90
        while sweep > -1 { sweep -= 360 }
        while sweep <= -360 { sweep += 360 }
        points += ringArc(from: 90, sweep: sweep).dropFirst()
        let radial = Point(x: cos(exit * .pi / 180), y: sin(exit * .pi / 180))
        let out = ringPoint(exit)
        points.append(Point(x: out.x + radial.x * 2, y: out.y + radial.y * 2))
        glyph.add(Arrow(points: points, direction: radial, headLength: 4, headHalfWidth: 4))
        return glyph
    }

    /// Leaving a roundabout already entered: a quarter of the ring, then out at the top.
    static func roundaboutExit() -> Glyph {
        var glyph = Glyph()
        glyph.line(ring(), width: 2.5)
        var points = ringArc(from: 0, sweep: -90)
        let out = ringPoint(-90)
        points.append(Point(x: out.x, y: out.y - 2))
        glyph.add(Arrow(points: points, direction: Point(x: 0, y: -1), headLength: 4, headHalfWidth: 4))
        return glyph
    }

    // MARK: - Destinations

    /// A flag on its pole, the pole's foot at `foot`, the cloth towards `side` (±1).
    static func flag(foot: Point, height: Double, side: Double) -> Glyph {
        var glyph = Glyph()
        let top = foot.y - height
        glyph.line([foot, Point(x: foot.x, y: top)], width: 2, .primary)
        glyph.fill([[Point(x: foot.x, y: top), Point(x: foot.x + side * 8, y: top + 3.2), Point(x: foot.x, y: top + 6.4)]])
        return glyph
    }

    static func destination() -> Glyph {
        var glyph = flag(foot: Point(x: 9, y: 20), height: 17, side: 1)
        glyph.fill([ellipse(center: Point(x: 9, y: 20.5), rx: 4, ry: 1.5)], .secondary)
        return glyph
    }

    /// The road ahead with the destination beside it on the right.
    static func destinationRight() -> Glyph {
        var glyph = Glyph()
        var t = Turtle(at: Point(x: 8, y: 23))
        t.forward(11)
        glyph.add(t.arrow())
        glyph.parts += flag(foot: Point(x: 16, y: 19), height: 14, side: 1).parts
        return glyph
    }

    // MARK: - Ferries

    static func ferryBoat() -> Glyph {
        var glyph = Glyph()
        glyph.fill([[Point(x: 3, y: 13), Point(x: 21, y: 13), Point(x: 17.5, y: 18.5), Point(x: 6.5, y: 18.5)]])
        glyph.fill([[Point(x: 7, y: 8), Point(x: 16, y: 8), Point(x: 16, y: 12), Point(x: 7, y: 12)]])
        glyph.fill([[Point(x: 10.5, y: 4), Point(x: 13, y: 4), Point(x: 13, y: 7.5), Point(x: 10.5, y: 7.5)]])
        var wave: [Point] = []
        for k in 0...40 {
            let x = 2 + 20 * Double(k) / 40
            wave.append(Point(x: x, y: 21.5 + 0.9 * sin(x / 20 * 4 * 2 * .pi)))
        }
        glyph.line(wave, width: 1.6, .primary)
        return glyph
    }

    static func ferryTrain() -> Glyph {
        var glyph = Glyph()
        let body = roundedRectangle(x: 6, y: 3, width: 12, height: 15, radius: 3)
        let window = roundedRectangle(x: 8, y: 5.5, width: 8, height: 5.5, radius: 1)
        glyph.fill([
            body, window, circle(center: Point(x: 9.2, y: 14.5), radius: 1.3),
            circle(center: Point(x: 14.8, y: 14.5), radius: 1.3),
        ])
        glyph.line([Point(x: 8.5, y: 18), Point(x: 6, y: 22)], width: 1.8, .primary)
        glyph.line([Point(x: 15.5, y: 18), Point(x: 18, y: 22)], width: 1.8, .primary)
        glyph.line([Point(x: 3, y: 22), Point(x: 21, y: 22)], width: 1.5)
        return glyph
    }

    // MARK: - Outlines

    static func circle(center: Point, radius: Double) -> [Point] { ellipse(center: center, rx: radius, ry: radius) }

    static func ellipse(center: Point, rx: Double, ry: Double) -> [Point] {
        (0..<48).map { k in
            let a = Double(k) / 48 * 2 * .pi
            return Point(x: center.x + rx * cos(a), y: center.y + ry * sin(a))
        }
    }

    static func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) -> [Point] {
        var points: [Point] = []
        let corners = [
            (x + width - radius, y + radius, -90.0), (x + width - radius, y + height - radius, 0),
            (x + radius, y + height - radius, 90), (x + radius, y + radius, 180),
        ]
        for (cx, cy, start) in corners {
            for k in 0...8 {
                let a = (start + 90 * Double(k) / 8) * .pi / 180
                points.append(Point(x: cx + radius * cos(a), y: cy + radius * sin(a)))
            }
        }
        return points
    }
}
