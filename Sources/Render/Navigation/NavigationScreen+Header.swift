// The navigation header: the next maneuver's icon (with a roundabout's exit number), the
// distance to it, and the road it leads onto (else the instruction); below, in the darker
// colour, the lanes, or "Then" and the step after next when it follows soon, or the
// accessory's lines. While rerouting it says so; on arrival it says that. Colours are the
// vehicle's settings, the night ones falling back to the day ones.

import Foundation
import Navigation
import Raster
import Styling

extension NavigationScreen {
    func drawHeader(_ plan: ScreenPlan, night: Bool, on painter: inout ScreenPainter) throws(RasterError) {
        guard let header = plan.header, let primary = plan.layout["headerPrimary"] else { return }
        painter.fill(primary, settings.headerPrimaryBackgroundColor(night: night))
        let secondary = plan.layout["headerSecondary"]
        if let secondary { painter.fill(secondary, settings.headerSecondaryBackgroundColor(night: night)) }
        let icon = settings.navigationHeaderLargeManeuverIconColor
        let textX = primary.x + 96
        let textWidth = primary.maxX - 16 - textX
        switch header {
        case .maneuver(let step, let distance, let second):
            painter.glyph(
                ManeuverGlyphs.glyph(step.maneuver), x: primary.x + 16, y: primary.y + 22, side: 64,
                primary: icon, secondary: icon.withOpacity(0.45))
            if step.roundaboutTurnNumber > 0 {
                try ExitBadge.draw(
                    step.roundaboutTurnNumber, center: Point(primary.x + 74, primary.y + 80), radius: 11,
                    fill: icon, text: settings.headerPrimaryBackgroundColor(night: night), on: &painter)
            }
            let parts = NavigationText.distance(distance, units: options.units)
            let value = try painter.layout(parts.value, size: 34, bold: true)
            try painter.draw(value, x: textX, baseline: primary.y + 52, color: settings.navigationHeaderDistanceValueTextColor)
            try painter.text(
                parts.unit, x: textX + painter.width(value) + 6, baseline: primary.y + 52, size: 20, bold: true,
                color: settings.navigationHeaderDistanceUnitsTextColor)
            let lines = try painter.wrapped(Self.roadText(step), size: 22, twoLineSize: 17, maximumWidth: textWidth)
            for (index, line) in lines.enumerated() {
                let baseline = lines.count == 1 ? 88 : 78 + 21 * Double(index)
                try painter.draw(line, x: textX, baseline: primary.y + baseline, color: settings.navigationHeaderInstructionsTextColor)
            }
            if let second, let secondary { try drawSecondary(second, in: secondary, night: night, on: &painter) }
        case .rerouting(let accessory):
            painter.glyph(Self.rerouteGlyph, x: primary.x + 16, y: primary.y + 22, side: 64, primary: icon, secondary: icon)
            let text = try painter.fitted("Rerouting…", size: 28, minimumSize: 18, maximumWidth: textWidth, bold: true)
            try painter.draw(text, x: textX, baseline: primary.y + 64, color: settings.navigationHeaderInstructionsTextColor)
            if let secondary, !accessory.isEmpty { try drawSecondary(.accessory(accessory), in: secondary, night: night, on: &painter) }
        case .stop(let stop):
            painter.glyph(Self.stopGlyph(stop), x: primary.x + 16, y: primary.y + 22, side: 64, primary: icon, secondary: icon.withOpacity(0.45))
            let color = settings.navigationHeaderInstructionsTextColor
            let title = try painter.fitted(stop.title, size: 26, minimumSize: 16, maximumWidth: textWidth, bold: true)
            if let place = stop.place {
                try painter.draw(title, x: textX, baseline: primary.y + 50, color: color)
                let line = try painter.fitted(place, size: 20, minimumSize: 14, maximumWidth: textWidth)
                try painter.draw(line, x: textX, baseline: primary.y + 82, color: color)
            } else {
                try painter.draw(title, x: textX, baseline: primary.y + 64, color: color)
            }
        }
    }

    private func drawSecondary(
        _ content: HeaderSecondary, in rect: Rect, night: Bool,
        on painter: inout ScreenPainter
    ) throws(RasterError) {
        let text = settings.navigationHeaderNextStepTextColor
        switch content {
        case .lanes(let lanes):
            let shown = Array(lanes.prefix(LaneImage.maximumLanes))
            let cell = min(48, (rect.width - 32) / Double(max(1, shown.count)))
            let recommended = settings.navigationHeaderGuidanceRecommendedLaneColor
            for (index, lane) in shown.enumerated() {
                let x = rect.x + 16 + Double(index) * cell
                if index > 0 {
                    painter.stroke(
                        .polyline([Point(x, rect.y + 12), Point(x, rect.maxY - 12)]), recommended.withOpacity(0.3), width: 1,
                        cap: .butt)
                }
                let directions = lane.laneDirections.sorted { !$0.recommended && $1.recommended }
                for direction in directions {
                    let color = direction.recommended ? recommended : recommended.withOpacity(0.4)
                    painter.glyph(
                        ManeuverGlyphs.glyph(direction.laneShape).primaryParts(), x: x + cell * 0.05,
                        y: rect.y + (rect.height - cell * 0.9) / 2, side: cell * 0.9, primary: color, secondary: color)
                }
            }
        case .then(let next):
            let then = try painter.layout("Then", size: 18, bold: true)
            try painter.draw(then, x: rect.x + 16, baseline: rect.y + 30, color: text)
            let small = settings.navigationHeaderSmallManeuverIconColor
            painter.glyph(
                ManeuverGlyphs.glyph(next.maneuver), x: rect.x + 24 + painter.width(then), y: rect.y + 8, side: 32,
                primary: small, secondary: small.withOpacity(0.45))
        case .accessory(let lines):
            for (index, line) in lines.enumerated() {
                let laid = try painter.fitted(line, size: 17, minimumSize: 13, maximumWidth: rect.width - 32)
                try painter.draw(laid, x: rect.x + 16, baseline: rect.y + 28 + 24 * Double(index), color: text)
            }
        }
    }

    /// The header's road line: the road's name, else its full name (the signed
    /// destinations of an exit), else the instruction.
    static func roadText(_ step: StepInfo) -> String {
        if !step.simpleRoadName.isEmpty { return step.simpleRoadName }
        if !step.fullRoadName.isEmpty { return step.fullRoadName }
        if !step.fullInstructionText.isEmpty { return step.fullInstructionText }
        return "Continue"
    }

    /// The icon of a stop: the destination flag on arrival, a clock while waiting, a tick once
    /// the trip is over.
    static func stopGlyph(_ stop: DriverStop) -> Glyph {
        switch stop {
        case .arrived: ManeuverGlyphs.glyph(.destination)
        case .waitingForRider: waitingGlyph
        case .tripComplete: completeGlyph
        }
    }

    /// A clock face, for waiting.
    static let waitingGlyph: Glyph = {
        var glyph = Glyph()
        let ring = (0...48).map { k in
            let angle = Double(k) / 48 * 2 * .pi
            return Point(x: 12 + 8.5 * cos(angle), y: 12 + 8.5 * sin(angle))
        }
        glyph.line(ring, width: 2.5, .primary)
        glyph.line([Point(x: 12, y: 6.5), Point(x: 12, y: 12), Point(x: 16, y: 14.5)], width: 2.5, .primary)
        return glyph
    }()

    /// A tick, for a trip complete.
    static let completeGlyph: Glyph = {
        var glyph = Glyph()
        glyph.line([Point(x: 4.5, y: 12.5), Point(x: 10, y: 18), Point(x: 20, y: 6.5)], width: 3.5, .primary)
        return glyph
    }()

    /// A circular arrow, for rerouting.
    static let rerouteGlyph: Glyph = {
        var turtle = Turtle(at: Point(x: 5.5, y: 13))
        turtle.turn(270, radius: 6.5)
        var glyph = Glyph()
        glyph.add(turtle.arrow(headLength: 4.5, headHalfWidth: 4))
        return glyph
    }()
}

/// A roundabout's exit number in a disc, beside its maneuver icon.
enum ExitBadge {
    static func draw(
        _ number: Int, center: Point, radius: Double, fill: Color, text: Color,
        on painter: inout ScreenPainter
    ) throws(RasterError) {
        painter.fill(.circle(center: center, radius: radius + 1.5), text)
        painter.fill(.circle(center: center, radius: radius), fill)
        let laid = try painter.layout(String(number), size: radius * 1.3, bold: true)
        try painter.draw(
            laid, x: center.x - painter.width(laid) / 2, baseline: center.y + radius * 1.3 * Badge.capHeight / 2,
            color: text)
    }
}
