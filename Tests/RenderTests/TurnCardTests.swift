import Foundation
import Geo
import Navigation
import Raster
import Render
import Testing
import TripModel

@Suite struct TurnCardTests {
    /// A card for the real routes at a step, `before` metres ahead of it.
    private func card(
        _ route: NavRoute?, step: Int, before: Double, speed: Double = 13, offRoute: Double = 0,
        query: [String: String]
    ) throws -> TurnCard {
        let route = try NavigationFixtures.route(route)
        let meters = try NavigationFixtures.meters(toStep: step, of: route) - before
        let (navigator, _) = try NavigationFixtures.drive(route, to: meters, speed: speed, offRouteMeters: offRoute)
        let finalIndex = route.destinations.count - 1
        return TurnCard(
            navInfo: navigator.navInfo, arrived: navigator.arrivedDestinationIndex == finalIndex,
            options: try TurnCardOptions(
                parameters: query.merging(["lighting": "normal"]) { a, _ in a },
                now: NavigationFixtures.at))
    }

    private func check(_ card: TurnCard, _ name: String) throws {
        let frame = try card.render()
        #expect(frame.image.width == card.options.size.width * card.options.scale)
        #expect(frame.image.height == card.options.size.height * card.options.scale)
        let png = try frame.png()
        if card.options.palette == .mono {
            #expect(png[24] == 1 && png[25] == 0, "a 1-bit greyscale PNG")
            // Compare what the display shows: the 1-bit image, decoded.
            let bits = try PNGCodec.decode(png)
            try FrameGoldens.check(bits, textBoxes: frame.textBoxes, golden: "cards/\(name)", textTolerance: 255, encoded: png)
        } else {
            try FrameGoldens.check(frame.image, textBoxes: frame.textBoxes, golden: "cards/\(name)")
        }
    }

    /// Every size, square and round, colour and mono, at scales 1–3, in each state; each
    /// golden looked at for legibility.
    @Test func goldenCards() throws {
        let korea = NavigationFixtures.portugalKorea
        let berlin = NavigationFixtures.berlin
        try check(card(korea, step: 50, before: 240, query: ["size": "240x240"]), "240-roundabout")
        try check(card(korea, step: 50, before: 240, query: ["size": "240x240", "shape": "round", "scale": "2"]), "240-round-roundabout@2")
        try check(
            card(korea, step: 50, before: 240, query: ["size": "240x240", "shape": "round", "palette": "mono"]),
            "240-round-roundabout-mono")
        try check(card(korea, step: 289, before: 700, speed: 30, query: ["size": "240x240", "lighting": "lowLight"]), "240-lanes-night")
        try check(card(berlin, step: 1, before: 20, speed: 7, query: ["size": "320x240"]), "320x240-turn")
        try check(
            card(korea, step: 289, before: 700, speed: 30, query: ["size": "320x240", "units": "imperial", "tz": "Europe/Minsk"]),
            "320x240-lanes-imperial")
        try check(card(korea, step: 289, before: 700, speed: 30, query: ["size": "240x320", "scale": "3"]), "240x320-lanes@3")
        try check(card(korea, step: 270, before: 380, query: ["size": "240x320", "lighting": "lowLight"]), "240x320-turn-night")
        try check(card(korea, step: 270, before: 380, query: ["size": "128x64", "palette": "mono"]), "128x64-turn-mono")
        try check(card(korea, step: 50, before: 240, query: ["size": "128x64", "palette": "mono", "scale": "3"]), "128x64-roundabout-mono@3")
        try check(card(korea, step: 289, before: 700, speed: 30, query: ["size": "128x64", "palette": "mono"]), "128x64-lanes-mono")
        try check(card(korea, step: 272, before: 300, offRoute: 80, query: ["size": "240x240"]), "240-rerouting")
        try check(card(korea, step: 272, before: 300, offRoute: 80, query: ["size": "128x64", "palette": "mono"]), "128x64-rerouting-mono")
        let route = try NavigationFixtures.route(berlin)
        let total = try #require(PolylineMeasure(try route.validate())).totalMeters
        let (navigator, _) = try NavigationFixtures.drive(route, to: total, speed: 5)
        let arrival = TurnCard(
            navInfo: navigator.navInfo, arrived: true,
            options: try TurnCardOptions(parameters: ["size": "320x240", "lighting": "normal"], now: NavigationFixtures.at))
        try check(arrival, "320x240-arrived")
        var monoArrival = arrival
        monoArrival.options.size = .tiny128
        monoArrival.options.palette = .mono
        try check(monoArrival, "128x64-arrived-mono")
    }

    /// The mono palette at the other sizes: a 1-bit card fits every display, not just the
    /// small OLED.
    @Test func goldenMonoCards() throws {
        let korea = NavigationFixtures.portugalKorea
        try check(card(korea, step: 270, before: 380, query: ["size": "240x240", "palette": "mono"]), "240-turn-mono")
        try check(
            card(korea, step: 289, before: 700, speed: 30, query: ["size": "320x240", "palette": "mono", "scale": "2"]),
            "320x240-lanes-mono@2")
        try check(card(korea, step: 50, before: 240, query: ["size": "240x320", "palette": "mono"]), "240x320-roundabout-mono")
    }

    /// Stopped without arriving is a blank card; a round card is black outside its face.
    @Test func blankAndRound() throws {
        let options = try TurnCardOptions(parameters: ["lighting": "normal"], now: NavigationFixtures.at)
        let blank = try TurnCard(navInfo: NavInfo(navState: .stopped), options: options).render()
        for (x, y) in [(0, 0), (120, 120), (239, 239), (10, 220)] { #expect(blank.image.color(x, y) == .white) }
        #expect(blank.textBoxes.isEmpty)
        var round = options
        round.shape = .round
        let face = try TurnCard(navInfo: NavInfo(navState: .stopped), options: round).render()
        #expect(face.image.color(2, 2) == .black && face.image.color(237, 237) == .black)
        #expect(face.image.color(120, 120) == .white)
    }

    /// The card's options refuse what no card can be.
    @Test func options() throws {
        let now = NavigationFixtures.at
        #expect(throws: StatusError.invalid("", "shape: round needs a square card (size=240x240), not 320x240")) {
            try TurnCardOptions(parameters: ["size": "320x240", "shape": "round"], now: now)
        }
        #expect(throws: StatusError.invalid("", "size: '100x100' is not one of 240x240, 320x240, 240x320, 128x64")) {
            try TurnCardOptions(parameters: ["size": "100x100"], now: now)
        }
        #expect(throws: StatusError.invalid("", "palette: 'grey' is not one of color, mono")) {
            try TurnCardOptions(parameters: ["palette": "grey"], now: now)
        }
        #expect(throws: StatusError.invalid("", "scale: '0' is not an integer from 1 to 3")) {
            try TurnCardOptions(parameters: ["scale": "0"], now: now)
        }
        let parsed = try TurnCardOptions(parameters: ["size": "128x64", "palette": "mono", "scale": "2"], now: now)
        #expect(parsed.size.width == 128 && parsed.size.height == 64 && parsed.palette == .mono && parsed.scale == 2)
    }
}
