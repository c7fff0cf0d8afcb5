// The turn-by-turn card for small screens (DESIGN §9, the Navigation SDK's turn-by-turn guide
// for two-wheelers and watches): the next maneuver's icon with a roundabout's exit number, the
// distance to it, the road name or the lanes, and a strip with the time, distance and arrival
// time to the next destination. Rerouting and arrival have their own cards; stopped is a
// blank card. Sizes from a 128×64 monochrome OLED to a 320×240 display, square or round,
// colour or a true 1-bit PNG. Like the screen, a pure function of its inputs.

import Foundation
import Navigation
import Raster

/// A drawn card: the image and where text was drawn.
public struct TurnCardFrame: Sendable {
    /// The picture (opaque).
    public var image: Image
    /// Device-pixel boxes whose pixels FreeType decides (for golden comparisons).
    package var textBoxes: [Rect]
    /// The palette it was drawn for.
    public var palette: TurnCardOptions.Palette

    /// The card as PNG bytes: 8-bit RGB, or 1-bit greyscale for the mono palette.
    public func png() throws(RasterError) -> [UInt8] {
        palette == .mono ? try PNGCodec.encodeMonochrome(image) : try PNGCodec.encode(image)
    }
}

/// Everything that decides a turn-by-turn card's pixels.
public struct TurnCard: Sendable {
    /// The navigator's latest NavInfo.
    public var navInfo: NavInfo
    /// True while the latest news is the arrival at the final destination.
    package var arrived: Bool
    /// Size, shape, palette, lighting, units, clock.
    public var options: TurnCardOptions

    /// A card from its inputs.
    public init(navInfo: NavInfo, arrived: Bool = false, options: TurnCardOptions) {
        self.navInfo = navInfo
        self.arrived = arrived
        self.options = options
    }

    /// Ink, background and strip colours.
    struct Colors {
        var background: Color
        var ink: Color
        var faded: Color
        var strip: Color
        var stripInk: Color
    }

    var colors: Colors {
        if options.palette == .mono {
            return Colors(background: .black, ink: .white, faded: .white, strip: .white, stripInk: .black)
        }
        let night = options.lighting == .lowLight || (options.lighting == .auto && navInfo.suggestedLightingMode == .lowLight)
        return night
            ? Colors(background: .black, ink: .white, faded: .rgb(0xBDC1C6), strip: .rgb(0x3C4043), stripInk: .white)
            : Colors(background: .white, ink: .rgb(0x202124), faded: .rgb(0x5F6368), strip: .rgb(0x202124), stripInk: .white)
    }

    /// Draws the card.
    public func render() throws(RasterError) -> TurnCardFrame {
        let colors = colors
        let size = options.size
        let canvas = Canvas(width: size.width * options.scale, height: size.height * options.scale, background: colors.background)
        var painter = ScreenPainter(canvas: canvas, scale: Double(options.scale))
        let layout = CardLayout(size: size, round: options.shape == .round)
        switch content {
        case .blank:
            break
        case .maneuver(let step):
            drawIcon(ManeuverGlyphs.glyph(step.maneuver), in: layout.icon, colors: colors, on: &painter)
            if step.roundaboutTurnNumber > 0 {
                let radius = max(6, layout.icon.width * 0.16)
                let inside = radius * 0.85
                try ExitBadge.draw(
                    step.roundaboutTurnNumber, center: Point(layout.icon.maxX - inside, layout.icon.maxY - inside),
                    radius: radius, fill: colors.ink, text: colors.background, on: &painter)
            }
            let parts = NavigationText.distance(navInfo.distanceToCurrentStepMeters, units: options.units)
            try drawDistance(parts, layout: layout, color: colors.ink, on: &painter)
            if !step.lanes.isEmpty, let lanes = layout.lanes {
                drawLanes(step.lanes, in: lanes, colors: colors, on: &painter)
                if layout.roadWithLanes { try drawRoad(NavigationScreen.roadText(step), layout: layout, color: colors.ink, on: &painter) }
            } else {
                try drawRoad(NavigationScreen.roadText(step), layout: layout, color: colors.ink, on: &painter)
            }
            try drawStrip(layout: layout, colors: colors, on: &painter)
        case .rerouting:
            painter.glyph(
                NavigationScreen.rerouteGlyph, x: layout.icon.x, y: layout.icon.y, side: layout.icon.width,
                primary: colors.ink, secondary: colors.ink)
            try drawHeadline("Rerouting…", layout: layout, color: colors.ink, on: &painter)
            try drawStrip(layout: layout, colors: colors, on: &painter)
        case .arrived:
            drawIcon(ManeuverGlyphs.glyph(.destination), in: layout.icon, colors: colors, on: &painter)
            try drawHeadline("Arrived", layout: layout, color: colors.ink, on: &painter)
        }
        if options.shape == .round {
            // Black outside the face: the square with the inscribed circle cut out.
            var mask = Path.rectangle(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
            let r = Double(size.width) / 2
            mask.arc(center: Point(r, r), radius: r, start: 0, sweep: 2 * .pi, continuing: false)
            mask.close()
            painter.fill(mask, .black, rule: .evenOdd)
        }
        return TurnCardFrame(image: painter.canvas.image, textBoxes: painter.textBoxes, palette: options.palette)
    }

    /// The card as PNG bytes.
    public func png() throws(RasterError) -> [UInt8] {
        try render().png()
    }

    // MARK: - Content

    enum Content {
        case blank
        case maneuver(StepInfo)
        case rerouting
        case arrived
    }

    var content: Content {
        if arrived { return .arrived }
        switch navInfo.navState {
        case .stopped: return .blank
        case .rerouting: return .rerouting
        case .enroute: return navInfo.currentStep.map(Content.maneuver) ?? .blank
        }
    }

    /// A maneuver icon: roads not taken faded in colour; in one bit they cannot fade, so the
    /// arrow is cut out of them by a black rim instead.
    private func drawIcon(_ glyph: Glyph, in rect: Rect, colors: Colors, on painter: inout ScreenPainter) {
        guard options.palette == .mono else {
            painter.glyph(glyph, x: rect.x, y: rect.y, side: rect.width, primary: colors.ink, secondary: colors.ink.withOpacity(0.35))
            return
        }
        painter.glyph(glyph, x: rect.x, y: rect.y, side: rect.width, primary: .transparent, secondary: colors.ink)
        let arrow = glyph.primaryParts()
        let rim = max(1.5, rect.width / 28)
        for k in 0..<8 {
            let angle = Double(k) * .pi / 4
            painter.glyph(
                arrow, x: rect.x + rim * cos(angle), y: rect.y + rim * sin(angle), side: rect.width,
                primary: colors.background, secondary: colors.background)
        }
        painter.glyph(glyph, x: rect.x, y: rect.y, side: rect.width, primary: colors.ink, secondary: .transparent)
    }

    private func drawDistance(
        _ parts: (value: String, unit: String), layout: CardLayout, color: Color,
        on painter: inout ScreenPainter
    ) throws(RasterError) {
        let value = try painter.layout(parts.value, size: layout.distanceSize, bold: true)
        let unit = try painter.layout(parts.unit, size: layout.distanceSize * 0.55, bold: true)
        let gap = layout.distanceSize * 0.15
        let total = painter.width(value) + gap + painter.width(unit)
        let x = layout.centred ? layout.text.midX - total / 2 : layout.text.x
        try painter.draw(value, x: x, baseline: layout.distanceBaseline, color: color)
        try painter.draw(unit, x: x + painter.width(value) + gap, baseline: layout.distanceBaseline, color: color)
    }

    private func drawHeadline(_ text: String, layout: CardLayout, color: Color, on painter: inout ScreenPainter) throws(RasterError) {
        let laid = try painter.fitted(text, size: layout.distanceSize * 0.75, minimumSize: 8, maximumWidth: layout.text.width, bold: true)
        let x = layout.centred ? layout.text.midX - painter.width(laid) / 2 : layout.text.x
        try painter.draw(laid, x: x, baseline: layout.distanceBaseline, color: color)
    }

    private func drawRoad(_ text: String, layout: CardLayout, color: Color, on painter: inout ScreenPainter) throws(RasterError) {
        let lines =
            layout.roadLines == 2
            ? try painter.wrapped(text, size: layout.roadSize, twoLineSize: layout.roadSize * 0.9, maximumWidth: layout.text.width)
            : [
                try painter.fitted(
                    text, size: layout.roadSize, minimumSize: layout.roadSize * 0.75, maximumWidth: layout.text.width,
                    bold: options.palette == .mono)
            ]
        for (index, line) in lines.enumerated() {
            let x = layout.centred ? layout.text.midX - painter.width(line) / 2 : layout.text.x
            try painter.draw(line, x: x, baseline: layout.roadBaseline + Double(index) * layout.roadSize * 1.2, color: color)
        }
    }

    private func drawLanes(_ lanes: [Lane], in rect: Rect, colors: Colors, on painter: inout ScreenPainter) {
        let shown = Array(lanes.prefix(Int(rect.width / (rect.height * 0.7))))
        let cell = min(rect.height, rect.width / Double(max(1, shown.count)))
        let mono = options.palette == .mono
        var x = layoutStart(rect, count: shown.count, cell: cell)
        for lane in shown {
            let recommended = lane.laneDirections.contains(where: \.recommended)
            for direction in lane.laneDirections.sorted(by: { !$0.recommended && $1.recommended }) {
                // One bit cannot fade a lane not to take: every arrow is drawn, the lanes to take underlined.
                let color = direction.recommended || mono ? colors.ink : colors.ink.withOpacity(0.35)
                painter.glyph(
                    ManeuverGlyphs.glyph(direction.laneShape).primaryParts(), x: x, y: rect.y + (rect.height - cell) / 2,
                    side: cell, primary: color, secondary: color)
            }
            if mono, recommended {
                painter.fill(
                    Rect(
                        x: x + cell * 0.2, y: rect.maxY - max(1.5, cell * 0.08), width: cell * 0.6,
                        height: max(1.5, cell * 0.08)), colors.ink)
            }
            x += cell
        }
    }

    private func layoutStart(_ rect: Rect, count: Int, cell: Double) -> Double {
        CardLayout(size: options.size, round: options.shape == .round).centred
            ? rect.midX - Double(count) * cell / 2 : rect.x
    }

    private func drawStrip(layout: CardLayout, colors: Colors, on painter: inout ScreenPainter) throws(RasterError) {
        let seconds = navInfo.timeToNextDestinationSeconds
        if layout.round {
            // A band would be cut by the face: two short centred lines in the chord instead.
            let first =
                NavigationText.duration(seconds) + " · "
                + NavigationText.clock(options.at, plus: seconds, zone: options.timeZone, units: options.units)
            let second = NavigationText.distanceText(navInfo.distanceToNextDestinationMeters, units: options.units)
            for (text, baseline, width) in [(first, 204.0, 170.0), (second, 222.0, 120.0)] {
                let laid = try painter.fitted(text, size: 15, minimumSize: 11, maximumWidth: width, bold: true)
                try painter.draw(laid, x: 120 - painter.width(laid) / 2, baseline: baseline, color: colors.ink)
            }
            return
        }
        guard let strip = layout.strip else { return }
        painter.fill(strip, colors.strip)
        let text = [
            NavigationText.duration(seconds), NavigationText.distanceText(navInfo.distanceToNextDestinationMeters, units: options.units),
            NavigationText.clock(options.at, plus: seconds, zone: options.timeZone, units: options.units),
        ]
        .joined(separator: layout.size == .tiny128 ? " " : " · ")
        let laid = try painter.fitted(
            text, size: layout.stripSize, minimumSize: layout.stripSize * 0.8, maximumWidth: layout.stripWidth,
            bold: options.palette == .mono)
        try painter.draw(laid, x: strip.midX - painter.width(laid) / 2, baseline: layout.stripBaseline, color: colors.stripInk)
    }
}

/// Where each part of a card goes, per size (points).
struct CardLayout {
    var size: TurnCardOptions.Size
    /// A round face: the strip's figures are drawn as two lines in the face's lower chord.
    var round: Bool
    var icon: Rect
    /// The text column (or the centred text's extent).
    var text: Rect
    var centred: Bool
    var distanceSize: Double
    var distanceBaseline: Double
    var roadSize: Double
    var roadBaseline: Double
    var roadLines: Int
    var lanes: Rect?
    /// Whether the road is also shown when the lanes are.
    var roadWithLanes: Bool
    var strip: Rect?
    var stripSize: Double
    var stripBaseline: Double
    var stripWidth: Double

    init(size: TurnCardOptions.Size, round: Bool) {
        self.size = size
        self.round = round
        switch size {
        case .square240:
            let inset = round ? 8.0 : 0
            icon = Rect(x: 74, y: 16 + inset, width: 92, height: 92)
            text = Rect(x: round ? 36 : 16, y: 112, width: round ? 168 : 208, height: 80)
            centred = true
            distanceSize = 40
            distanceBaseline = 150
            roadSize = 18
            roadBaseline = round ? 178 : 182
            roadLines = 1
            lanes = Rect(x: text.x, y: 160 + inset * 0.5, width: text.width, height: 32)
            roadWithLanes = false
            strip = Rect(x: 0, y: 198, width: 240, height: 42)
            stripSize = 15
            stripBaseline = 224
            stripWidth = round ? 150 : 224
        case .landscape320:
            icon = Rect(x: 14, y: 36, width: 116, height: 116)
            text = Rect(x: 144, y: 20, width: 164, height: 170)
            centred = false
            distanceSize = 42
            distanceBaseline = 70
            roadSize = 19
            roadBaseline = 106
            roadLines = 2
            lanes = Rect(x: 144, y: 150, width: 164, height: 36)
            roadWithLanes = true
            strip = Rect(x: 0, y: 196, width: 320, height: 44)
            stripSize = 17
            stripBaseline = 224
            stripWidth = 300
        case .portrait240:
            icon = Rect(x: 60, y: 16, width: 120, height: 120)
            text = Rect(x: 16, y: 140, width: 208, height: 130)
            centred = true
            distanceSize = 42
            distanceBaseline = 180
            roadSize = 19
            roadBaseline = 210
            roadLines = 2
            lanes = Rect(x: 16, y: 238, width: 208, height: 34)
            roadWithLanes = true
            strip = Rect(x: 0, y: 278, width: 240, height: 42)
            stripSize = 15
            stripBaseline = 304
            stripWidth = 224
        case .tiny128:
            icon = Rect(x: 2, y: 2, width: 42, height: 42)
            text = Rect(x: 48, y: 2, width: 78, height: 44)
            centred = false
            distanceSize = 20
            distanceBaseline = 21
            roadSize = 11
            roadBaseline = 39
            roadLines = 1
            lanes = Rect(x: 48, y: 26, width: 78, height: 18)
            roadWithLanes = false
            strip = Rect(x: 0, y: 48, width: 128, height: 16)
            stripSize = 10.5
            stripBaseline = 60
            stripWidth = 124
        }
    }
}
