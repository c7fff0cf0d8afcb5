import Foundation
import Testing

@testable import Raster

/// Coverage of a fill on a small transparent canvas.
func fillCoverage(_ path: Path, width: Int = 8, height: Int = 8, rule: FillRule = .nonZero) -> [UInt8] {
    Canvas(width: width, height: height).coverage(of: path, rule: rule)
}

@Suite struct CoverageTests {
    /// A rectangle edge halfway through a pixel column covers that column by half (128 of 255).
    @Test func halfCoveredPixelIsHalf() {
        let mask = fillCoverage(.rectangle(x: 1.5, y: 0, width: 1.5, height: 4), width: 4, height: 4)
        for y in 0..<4 {
            #expect(mask[y * 4 + 0] == 0)
            #expect(mask[y * 4 + 1] == 128)
            #expect(mask[y * 4 + 2] == 255)
            #expect(mask[y * 4 + 3] == 0)
        }
    }

    /// A quarter-covered pixel (corner square of 0.5×0.5) is 64 of 255.
    @Test func quarterCoveredCorner() {
        let mask = fillCoverage(.rectangle(x: 0.5, y: 0.5, width: 0.5, height: 0.5), width: 2, height: 2)
        #expect(mask == [64, 0, 0, 0])
    }

    /// A square on pixel edges covers its pixels fully and nothing else.
    @Test func squareOnPixelEdgesCoversExactly() {
        let mask = fillCoverage(.rectangle(x: 2, y: 3, width: 3, height: 2))
        for y in 0..<8 {
            for x in 0..<8 {
                let inside = (2..<5).contains(x) && (3..<5).contains(y)
                #expect(mask[y * 8 + x] == (inside ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    /// A diagonal edge through a pixel's corners covers it by half.
    @Test func diagonalHalvesPixels() {
        let mask = fillCoverage(.polygon([Point(0, 0), Point(4, 4), Point(0, 4)]), width: 4, height: 4)
        for i in 0..<4 {
            #expect(mask[i * 4 + i] == 128)
            if i > 0 { #expect(mask[i * 4 + i - 1] == 255) }
            if i < 3 { #expect(mask[i * 4 + i + 1] == 0) }
        }
    }

    /// On a self-overlapping pentagram the centre is filled under nonzero and empty under even-odd.
    @Test func evenOddAndNonZeroOnStar() {
        let center = Point(20, 20)
        let points = (0..<5).map { step -> Point in
            let angle = -Double.pi / 2 + Double(step * 2) * 2 * Double.pi / 5
            return Point(center.x + 18 * cos(angle), center.y + 18 * sin(angle))
        }
        let star = Path.polygon(points)
        let nonZero = fillCoverage(star, width: 40, height: 40, rule: .nonZero)
        let evenOdd = fillCoverage(star, width: 40, height: 40, rule: .evenOdd)
        #expect(nonZero[20 * 40 + 20] == 255)
        #expect(evenOdd[20 * 40 + 20] == 0)
        // A point inside a tip is inside under both rules.
        #expect(nonZero[6 * 40 + 20] == 255)
        #expect(evenOdd[6 * 40 + 20] == 255)
    }

    /// Two opposite-wound overlapping squares cancel under nonzero; same-wound ones do not double.
    @Test func windingDirection() {
        let clockwise = [Point(0, 0), Point(4, 0), Point(4, 4), Point(0, 4)]
        var opposite = Path.polygon(clockwise)
        opposite = Path(elements: opposite.elements + Path.polygon(clockwise.reversed()).elements)
        #expect(fillCoverage(opposite, width: 4, height: 4).allSatisfy { $0 == 0 })
        let same = Path(elements: Path.polygon(clockwise).elements + Path.polygon(clockwise).elements)
        #expect(fillCoverage(same, width: 4, height: 4).allSatisfy { $0 == 255 })
        #expect(fillCoverage(same, width: 4, height: 4, rule: .evenOdd).allSatisfy { $0 == 0 })
    }

    /// A circle's summed coverage is its area πr² (within the 0.1 px flattening error).
    @Test func circleAreaMatchesPiRSquared() {
        let radius = 20.0
        let mask = fillCoverage(.circle(center: Point(25.3, 24.7), radius: radius), width: 50, height: 50)
        let area = mask.reduce(0.0) { $0 + Double($1) / 255 }
        let expected = Double.pi * radius * radius
        #expect(abs(area - expected) / expected < 0.005, "area \(area) vs \(expected)")
    }

    /// Shapes beyond the canvas are clipped; a shape left of the canvas keeps its winding.
    @Test func clippingKeepsCoverageInside() {
        let mask = fillCoverage(.rectangle(x: -100, y: -50, width: 102.5, height: 1000), width: 4, height: 4)
        for y in 0..<4 {
            #expect(Array(mask[(y * 4)..<(y * 4 + 4)]) == [255, 255, 128, 0])
        }
    }

    /// Huge, NaN and infinite coordinates draw nothing wrong and do not crash.
    @Test func degenerateCoordinatesDrawNothing() {
        #expect(fillCoverage(.polygon([Point(0, 0), Point(.nan, 3), Point(3, 3)])).allSatisfy { $0 == 0 })
        #expect(fillCoverage(.polygon([Point(0, 0), Point(.infinity, 3), Point(3, 3)])).allSatisfy { $0 == 0 })
        let huge = fillCoverage(.rectangle(x: -1e300, y: -1e300, width: 2e300, height: 2e300))
        #expect(huge.allSatisfy { $0 == 255 })
        let far = fillCoverage(.polygon([Point(1e20, 1e20), Point(2e20, 1e20), Point(2e20, 3e20)]))
        #expect(far.allSatisfy { $0 == 0 })
        var canvas = Canvas(width: 8, height: 8)
        canvas.stroke(polyline: [Point(0, 0), Point(.nan, .nan), Point(5, 5)], style: StrokeStyle(width: 2), color: .black)
        #expect(canvas.pixel(x: 3, y: 3).alpha == 0)
        canvas.stroke(polyline: [Point(-1e300, 6), Point(1e300, 6)], style: StrokeStyle(width: 2), color: .black)
        // The huge line is drawn where it crosses the canvas: rows 5 and 6.
        #expect((0..<8).allSatisfy { canvas.pixel(x: $0, y: 5).alpha == 255 && canvas.pixel(x: $0, y: 6).alpha == 255 })
        #expect(canvas.pixel(x: 0, y: 7).alpha == 0)
    }
}
