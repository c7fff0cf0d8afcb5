// The screen's own elements over the map: the trip progress bar (traffic along the whole
// trip from bottom to top, the travelled part grey, the vehicle's place, the stops), the
// speedometer (the current speed, in the alert colours when speeding past the navigator's
// thresholds, beside the posted limit when one is known; no sign at all when none is), the
// compass, my-location and recenter buttons, and the footer (time to the next destination in
// the colour of its delay, distance, arrival clock time).

import Foundation
import Navigation
import Raster
import Styling

extension NavigationScreen {
    func drawPanels(_ plan: ScreenPlan, palette: NavigationPalette, night: Bool, on painter: inout ScreenPainter) throws(RasterError) {
        if let bar = plan.layout["tripProgressBar"] { drawProgressBar(bar, palette: palette, on: &painter) }
        if let speed = plan.layout["currentSpeed"] {
            try drawSpeedometer(speed: speed, limit: plan.layout["speedLimit"], palette: palette, night: night, on: &painter)
        }
        if let rect = plan.layout["compassButton"] { drawCompass(rect, bearing: plan.camera.bearing, palette: palette, on: &painter) }
        if let rect = plan.layout["myLocationButton"] { drawMyLocation(rect, palette: palette, on: &painter) }
        if let rect = plan.layout["recenterButton"] { try drawRecenter(rect, palette: palette, on: &painter) }
        try drawHeader(plan, night: night, on: &painter)
        if let footer = plan.layout["footer"] { try drawFooter(footer, palette: palette, on: &painter) }
    }

    // MARK: - Trip progress bar

    private func drawProgressBar(_ rect: Rect, palette: NavigationPalette, on painter: inout ScreenPainter) {
        guard let route, let progress = progressMeters, route.totalMeters > 0 else { return }
        let traffic = self.traffic ?? route.estimatedTraffic
        let total = route.totalMeters
        func y(_ meters: Double) -> Double { rect.maxY - meters / total * rect.height }
        painter.fill(Rect(x: rect.x - 2, y: rect.y - 2, width: rect.width + 4, height: rect.height + 4), palette.panel, radius: 4)
        // Runs of one colour along the trip: the travelled part, then the traffic ahead with
        // segments shorter than a device pixel of bar taking their first one's colour.
        var runs: [(from: Double, to: Double, color: Color)] = []
        func add(_ from: Double, _ to: Double, _ color: Color) {
            guard to > from else { return }
            if let last = runs.last, last.color == color, abs(last.to - from) < 1e-6 {
                runs[runs.count - 1].to = to
            } else {
                runs.append((from, to, color))
            }
        }
        add(0, progress, palette.travelledRoute)
        let resolution = total / (rect.height * painter.scale)
        let segmentCount = route.worlds.count - 1
        var segment = route.position(atMeters: progress).segment
        while segment < segmentCount {
            var next = segment + 1
            while next < segmentCount, route.meters[next] - route.meters[segment] < resolution { next += 1 }
            add(max(progress, route.meters[segment]), route.meters[next], palette.route[traffic?.speed(segment) ?? .noData])
            segment = next
        }
        for run in runs {
            painter.fill(Rect(x: rect.x, y: y(run.to), width: rect.width, height: y(run.from) - y(run.to)), run.color)
        }
        for meters in route.destinationMeters.dropLast() {
            painter.fill(Rect(x: rect.x - 1, y: y(meters) - 1, width: rect.width + 2, height: 2), palette.panelText)
        }
        painter.fill(.circle(center: Point(rect.midX, rect.y), radius: 5), .rgb(0xD93025))
        let at = Point(rect.midX, y(progress))
        painter.fill(.circle(center: at, radius: 9), .white)
        painter.fill(.circle(center: at, radius: 6.5), palette.accent)
    }

    // MARK: - Speedometer

    private func drawSpeedometer(
        speed rect: Rect, limit: Rect?, palette: NavigationPalette, night: Bool,
        on painter: inout ScreenPainter
    ) throws(RasterError) {
        let speed = speedMetersPerSecond
        var text = palette.panelText
        var background = palette.panel
        if let speed, let limitKph = currentSpeedLimitKph {
            switch speedAlertThresholds.severity(speedKph: speed * 3.6, limitKph: limitKph) {
            case .none: break
            case .minor: (text, background) = settings.speedometerUIOptions.colors(major: false, night: night)
            case .major: (text, background) = settings.speedometerUIOptions.colors(major: true, night: night)
            }
        }
        painter.fill(
            Rect(x: rect.x - 1, y: rect.y - 1, width: rect.width + 2, height: rect.height + 2), palette.panelOutline,
            radius: 13)
        painter.fill(rect, background, radius: 12)
        let number = speed.map { String(NavigationText.speed(metersPerSecond: $0, units: options.units)) } ?? "–"
        let value = try painter.layout(number, size: 24, bold: true)
        try painter.draw(value, x: rect.midX - painter.width(value) / 2, baseline: rect.y + 31, color: text)
        let unit = try painter.layout(NavigationText.speedUnit(options.units), size: 10)
        try painter.draw(unit, x: rect.midX - painter.width(unit) / 2, baseline: rect.y + 47, color: text)

        guard let limit, let limitKph = currentSpeedLimitKph else { return }
        let posted = String(NavigationText.speedLimit(kph: limitKph, units: options.units))
        switch options.units {
        case .metric:
            let center = Point(limit.midX, limit.midY)
            painter.fill(.circle(center: center, radius: 27), palette.panelOutline)
            painter.fill(.circle(center: center, radius: 26), .white)
            painter.stroke(.circle(center: center, radius: 22.5), .rgb(0xD93025), width: 6)
            let laid = try painter.fitted(posted, size: 21, minimumSize: 12, maximumWidth: 36, bold: true)
            try painter.draw(
                laid, x: center.x - painter.width(laid) / 2, baseline: center.y + laid.size / painter.scale * Badge.capHeight / 2,
                color: .rgb(0x202124))
        case .imperial:
            let sign = Rect(x: limit.x + 7, y: limit.y, width: limit.width - 14, height: limit.height)
            painter.fill(
                Rect(x: sign.x - 1, y: sign.y - 1, width: sign.width + 2, height: sign.height + 2), palette.panelOutline,
                radius: 7)
            painter.fill(sign, .white, radius: 6)
            painter.stroke(
                .roundedRectangle(x: sign.x + 2.5, y: sign.y + 2.5, width: sign.width - 5, height: sign.height - 5, radius: 4),
                .rgb(0x202124), width: 1.5)
            for (word, baseline) in [("SPEED", 13.5), ("LIMIT", 21.5)] {
                let laid = try painter.layout(word, size: 7, bold: true)
                try painter.draw(laid, x: sign.midX - painter.width(laid) / 2, baseline: sign.y + baseline, color: .rgb(0x202124))
            }
            let laid = try painter.fitted(posted, size: 21, minimumSize: 12, maximumWidth: sign.width - 8, bold: true)
            try painter.draw(laid, x: sign.midX - painter.width(laid) / 2, baseline: sign.y + 46, color: .rgb(0x202124))
        }
    }

    // MARK: - Buttons

    private func drawRoundButton(_ rect: Rect, palette: NavigationPalette, on painter: inout ScreenPainter) {
        let center = Point(rect.midX, rect.midY)
        painter.fill(.circle(center: Point(center.x, center.y + 1), radius: rect.width / 2 + 1), palette.panelOutline)
        painter.fill(.circle(center: center, radius: rect.width / 2), palette.panel)
    }

    private func drawCompass(_ rect: Rect, bearing: Double, palette: NavigationPalette, on painter: inout ScreenPainter) {
        drawRoundButton(rect, palette: palette, on: &painter)
        let turn = Transform.rotation(radians: -bearing * .pi / 180).translatedBy(x: rect.midX, y: rect.midY)
        painter.fill(.polygon([Point(0, -15), Point(5, 0), Point(-5, 0)]), .rgb(0xEA4335), transform: turn)
        painter.fill(.polygon([Point(0, 15), Point(5, 0), Point(-5, 0)]), palette.panelSecondaryText, transform: turn)
        painter.fill(.circle(center: Point(0, 0), radius: 1.8), palette.panel, transform: turn)
    }

    private func drawMyLocation(_ rect: Rect, palette: NavigationPalette, on painter: inout ScreenPainter) {
        drawRoundButton(rect, palette: palette, on: &painter)
        let c = Point(rect.midX, rect.midY)
        painter.stroke(.circle(center: c, radius: 9), palette.accent, width: 2.5)
        painter.fill(.circle(center: c, radius: 4.5), palette.accent)
        for (dx, dy) in [(0.0, -1.0), (0, 1), (-1, 0), (1, 0)] {
            painter.stroke(
                .polyline([Point(c.x + dx * 10, c.y + dy * 10), Point(c.x + dx * 14, c.y + dy * 14)]), palette.accent,
                width: 2.5, cap: .butt)
        }
    }

    private func drawRecenter(_ rect: Rect, palette: NavigationPalette, on painter: inout ScreenPainter) throws(RasterError) {
        painter.fill(
            Rect(x: rect.x - 1, y: rect.y, width: rect.width + 2, height: rect.height + 2), palette.panelOutline,
            radius: rect.height / 2 + 1)
        painter.fill(rect, palette.panel, radius: rect.height / 2)
        let arrow = Transform.scale(x: 0.62, y: 0.62).translatedBy(x: rect.x + 24, y: rect.midY + 1)
        painter.fill(.polygon([Point(0, -16), Point(12, 12), Point(0, 6), Point(-12, 12)]), palette.accent, transform: arrow)
        let label = try painter.fitted("Re-center", size: 15, minimumSize: 11, maximumWidth: rect.width - 48, bold: true)
        try painter.draw(label, x: rect.x + 40, baseline: rect.midY + 5.5, color: palette.accent)
    }

    // MARK: - Footer

    private func drawFooter(_ rect: Rect, palette: NavigationPalette, on painter: inout ScreenPainter) throws(RasterError) {
        let radius = Self.footerCornerRadius
        painter.fill(
            Rect(x: rect.x, y: rect.y - 1, width: rect.width, height: rect.height + radius + 1), palette.panelOutline,
            radius: radius + 1)
        painter.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height + radius), palette.panel, radius: radius)
        let seconds = navInfo.timeToNextDestinationSeconds
        let time: Color =
            switch navInfo.delayCategory {
            case .light: palette.delay.light
            case .medium: palette.delay.medium
            case .heavy: palette.delay.heavy
            case .noData: palette.panelText
            }
        let timeText = try painter.fitted(
            NavigationText.duration(seconds), size: 28, minimumSize: 18, maximumWidth: rect.width - 48,
            bold: true)
        try painter.draw(timeText, x: rect.x + 24, baseline: rect.y + 38, color: time)
        let arrival = NavigationText.clock(options.at, plus: seconds, zone: options.timeZone, units: options.units)
        let detail = "\(NavigationText.distanceText(navInfo.distanceToNextDestinationMeters, units: options.units)) · \(arrival)"
        let detailText = try painter.fitted(detail, size: 17, minimumSize: 12, maximumWidth: rect.width - 48)
        try painter.draw(detailText, x: rect.x + 24, baseline: rect.y + 64, color: palette.panelSecondaryText)
    }
}
