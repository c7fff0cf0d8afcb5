// Where everything goes before anything is drawn: what the header says, the rectangles of
// every element (layout.json), and the camera. Portrait screens put the header across the
// top and the footer across the bottom; landscape ones stack them in a column on the leading
// side and give the rest to the map, as the SDK does.
//
// The trip progress bar follows the SDK guide's geometry exactly: 12 pt wide on the leading
// side, its bottom 210 pt above the screen's bottom, its top at least 170 pt below the
// screen's top, at most 400 pt tall; a screen too short for 100 pt of it gets none (a
// squashed bar would show nothing readable).

import Foundation
import Geo
import Navigation
import Raster
import Styling

/// What the header shows.
enum HeaderContent {
    /// The next maneuver, the distance to it, and the second row, if any.
    case maneuver(StepInfo, distanceMeters: Double, secondary: HeaderSecondary?)
    /// Looking for a new route; the accessory's lines, if set.
    case rerouting(accessory: [String])
    /// At a stop: arrived, waiting for the rider, or the trip over.
    case stop(DriverStop)
}

/// The header's second row.
enum HeaderSecondary {
    /// The lanes at the maneuver.
    case lanes([Lane])
    /// The step after next, which comes soon after this one.
    case then(StepInfo)
    /// The settings' `headerAccessory` lines.
    case accessory([String])
}

/// A screen's layout, camera and content, decided before drawing.
struct ScreenPlan {
    var layout: NavigationLayout
    var camera: Camera
    var header: HeaderContent?
    /// The alternates drawn, with the text of their time difference.
    var alternates: [(index: Int, label: String)]
}

extension NavigationScreen {
    /// Height of the header's main row, points.
    static let headerPrimaryHeight = 108.0
    /// Height of the footer, points.
    static let footerHeight = 80.0
    /// The radius of the footer's top corners, points.
    static let footerCornerRadius = 16.0
    /// Space between elements and the screen's edges, points.
    static let margin = 12.0
    /// The trip progress bar's width, points.
    static let progressBarWidth = 12.0
    /// From the screen's bottom to the bar's bottom, points.
    static let progressBarBottomInset = 210.0
    /// The least from the screen's top to the bar's top, points.
    static let progressBarMinimumTop = 170.0
    /// The bar's largest height, points.
    static let progressBarMaximumHeight = 400.0
    /// Below this height the bar is left out, points.
    static let progressBarMinimumHeight = 100.0
    /// A cell of the speedometer (current speed, speed limit), points.
    static let speedometerCell = 56.0
    /// "Then" comes up in the header when the step after next is at most this far, metres.
    static let thenDistanceMeters = 300.0

    /// Decides the header, the rectangles and the camera.
    func plan() throws(RasterError) -> ScreenPlan {
        let w = Double(options.width)
        let h = Double(options.height)
        let scale = Double(options.scale)
        let header = headerContent()
        let showFooter = settings.navigationFooterEnabled && isGuiding && !arrived && stop == nil
        let column = options.isLandscape ? min(380, max(300, (w * 0.4).rounded())) : w
        var layout = NavigationLayout(
            width: options.width, height: options.height, scale: options.scale,
            orientation: options.isLandscape ? "landscape" : "portrait", lighting: lighting.rawValue,
            camera: .init(latitude: 0, longitude: 0, zoom: 0, bearing: 0, mode: options.camera.name))

        var headerRect: Rect?
        var primary: Rect?
        var secondary: Rect?
        if let header {
            primary = Rect(x: 0, y: 0, width: column, height: Self.headerPrimaryHeight)
            if let height = secondaryHeight(header) {
                secondary = Rect(x: 0, y: Self.headerPrimaryHeight, width: column, height: height)
            }
            headerRect = primary.map { p in secondary.map { p.union($0) } ?? p }
        }
        var footer: Rect? = showFooter ? Rect(x: 0, y: h - Self.footerHeight, width: column, height: Self.footerHeight) : nil
        // A screen too short for both keeps the header.
        if let f = footer, let top = headerRect, top.maxY + 8 > f.y { footer = nil }

        // The map is what the header and footer leave free.
        var map = Rect(x: 0, y: 0, width: w, height: h)
        if options.isLandscape {
            if headerRect != nil || footer != nil { map = Rect(x: column, y: 0, width: w - column, height: h) }
        } else {
            let top = headerRect?.maxY ?? 0
            let bottom = footer?.y ?? h
            map = Rect(x: 0, y: top, width: w, height: max(1, bottom - top))
        }
        layout.set("map", map)
        let bottomLimit = (options.isLandscape ? h : footer?.y ?? h) - Self.margin

        if settings.navigationTripProgressBarEnabled, route != nil, progressMeters != nil {
            let bottom = h - Self.progressBarBottomInset
            let top = max(Self.progressBarMinimumTop, bottom - Self.progressBarMaximumHeight)
            if bottom - top >= Self.progressBarMinimumHeight {
                layout.set("tripProgressBar", Rect(x: map.x + Self.margin, y: top, width: Self.progressBarWidth, height: bottom - top))
            }
        }

        var speedometer: Rect?
        if settings.shouldDisplaySpeedometer, isGuiding {
            let cell = Self.speedometerCell
            let speed = Rect(x: map.x + Self.margin, y: bottomLimit - cell, width: cell, height: cell)
            var whole = speed
            if currentSpeedLimitKph != nil {
                let limit = Rect(x: speed.maxX + 6, y: speed.y, width: cell, height: cell)
                whole = speed.union(limit)
                layout.set("speedometer", whole)
                layout.set("currentSpeed", speed)
                layout.set("speedLimit", limit)
            } else {
                layout.set("speedometer", whole)
                layout.set("currentSpeed", speed)
            }
            speedometer = whole
        }

        let camera = makeCamera(map: map, scale: scale)
        layout.camera = .init(
            latitude: camera.center.latitude, longitude: camera.center.longitude, zoom: camera.zoom,
            bearing: camera.bearing, mode: options.camera.name)

        let following = options.camera == .following
        if settings.compassButton, following || abs(camera.bearing.truncatingRemainder(dividingBy: 360)) > 0.01 {
            let top = (options.isLandscape ? 0 : headerRect?.maxY ?? 0) + Self.margin
            layout.set("compassButton", Rect(x: w - Self.margin - 44, y: top, width: 44, height: 44))
        }
        var myLocation: Rect?
        if settings.myLocationButton {
            let rect = Rect(x: w - Self.margin - 48, y: bottomLimit - 48, width: 48, height: 48)
            layout.set("myLocationButton", rect)
            myLocation = rect
        }
        if settings.recenterButtonEnabled, !following {
            var rect = Rect(x: map.midX - 66, y: bottomLimit - 44, width: 132, height: 44)
            let obstacles = [speedometer, myLocation].compactMap { $0 }.filter { $0.intersects(rect) }
            if let top = obstacles.map(\.y).min() { rect.y = top - Self.margin - 44 }
            layout.set("recenterButton", rect)
        }

        let alternates = try alternateLabels(camera: camera, map: map, into: &layout)
        if let headerRect {
            layout.set("header", headerRect)
            if let primary { layout.set("headerPrimary", primary) }
            if let secondary { layout.set("headerSecondary", secondary) }
        }
        if let footer { layout.set("footer", footer) }
        return ScreenPlan(layout: layout, camera: camera, header: header, alternates: alternates)
    }

    /// The speed limit shown: the NavInfo's, while guiding.
    var currentSpeedLimitKph: Double? {
        guard isGuiding, let limit = navInfo.currentSpeedLimitKph, limit.isFinite, limit > 0 else { return nil }
        return limit
    }

    /// The header's content, nil when none is drawn (disabled, or stopped without arriving).
    func headerContent() -> HeaderContent? {
        guard settings.navigationHeaderEnabled else { return nil }
        if let stop { return .stop(stop) }
        if arrived { return .stop(.arrived(place: route?.route.destinations.last?.name)) }
        switch navInfo.navState {
        case .stopped:
            return nil
        case .rerouting:
            return .rerouting(accessory: settings.headerAccessory)
        case .enroute:
            guard let step = navInfo.currentStep else { return nil }
            var secondary: HeaderSecondary?
            if !settings.headerAccessory.isEmpty {
                secondary = .accessory(settings.headerAccessory)
            } else if !step.lanes.isEmpty {
                secondary = .lanes(step.lanes)
            } else if let next = navInfo.remainingSteps.first, next.distanceFromPrevStepMeters <= Self.thenDistanceMeters {
                secondary = .then(next)
            }
            return .maneuver(step, distanceMeters: navInfo.distanceToCurrentStepMeters, secondary: secondary)
        }
    }

    /// Height of the header's second row, nil when there is none.
    func secondaryHeight(_ header: HeaderContent) -> Double? {
        switch header {
        case .maneuver(_, _, .lanes?): 64
        case .maneuver(_, _, .then?): 48
        case .maneuver(_, _, .accessory(let lines)?): Double(12 + 24 * lines.count)
        case .rerouting(let lines) where !lines.isEmpty: Double(12 + 24 * lines.count)
        default: nil
        }
    }

    // MARK: - Camera

    /// The following camera's zoom: 17 in town, out to 15 at motorway speeds, and out further
    /// (to 15 at most) so that a maneuver less than 800 m ahead is in view.
    func followingZoom(ahead points: Double, latitude: Double) -> Double {
        let kph = (speedMetersPerSecond ?? 0) * 3.6
        var zoom = 17 - min(2, max(0, (kph - 40) / 35))
        let distance = navInfo.distanceToCurrentStepMeters
        if navInfo.navState == .enroute, navInfo.currentStep != nil, distance > 0, distance < 800, points > 0 {
            // Web Mercator metres per point at zoom 0 is 156,543 · cos(latitude).
            let fit = log2(156_543.033_92 * cos(latitude * .pi / 180) * points / (distance * 1.15))
            zoom = max(15, min(zoom, fit))
        }
        return zoom
    }

    func makeCamera(map: Rect, scale: Double) -> Camera {
        let pixelWidth = options.pixelWidth
        let pixelHeight = options.pixelHeight
        let fallback = vehicleWorld ?? route?.worlds.first ?? WorldPoint(x: 128, y: 128)
        switch options.camera {
        case .following:
            let headingUp = options.perspective == .topDownHeadingUp
            let bearing = headingUp ? (vehicleHeading ?? 0) : 0
            let anchorY = headingUp ? map.y + map.height * 0.7 : map.midY
            let zoom = followingZoom(ahead: (anchorY - map.y) * 0.9, latitude: WebMercator.latLng(fallback, zoom: 0).latitude)
            return Camera.anchored(
                world: fallback, at: Point(map.midX * scale, anchorY * scale), zoom: zoom,
                bearing: bearing, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        case .free(let center, let zoom, let bearing):
            let world = center.map { WebMercator.worldPoint($0, zoom: 0) } ?? fallback
            let clamped = min(max(zoom ?? 16, NavigationScreenOptions.zoomRange.lowerBound), NavigationScreenOptions.zoomRange.upperBound)
            return Camera(
                centerWorld: world, zoom: clamped, bearing: bearing, pixelWidth: pixelWidth, pixelHeight: pixelHeight,
                scale: scale)
        case .overview:
            var routePoints: [WorldPoint] = []
            if let route {
                let from = route.position(atMeters: progressMeters ?? 0).segment
                routePoints = Array(route.worlds[from...])
                for alternate in route.alternates.prefix(settings.alternateRoutesStrategy.maximumShown) {
                    routePoints += alternate.worlds
                }
            }
            var items: [FitItem] = []
            if let vehicle = vehicleWorld {
                let extent = 20 * scale
                items.append(FitItem(world: vehicle, left: extent, right: extent, up: extent, down: extent))
            }
            // Fit inside the map area less the strip of buttons along its bottom.
            var area = map
            area.height = max(map.height / 2, map.height - 64)
            let areaWidth = max(1, Int(area.width * scale))
            let areaHeight = max(1, Int(area.height * scale))
            let padding = min(40 * scale, Double(min(areaWidth, areaHeight)) / 4)
            let fitted = Camera.fitting(
                routePoints: routePoints, routeExtent: 6 * scale, items: items, center: nil, zoom: nil,
                bearing: 0, pixelWidth: areaWidth, pixelHeight: areaHeight, scale: scale, padding: padding)
            return Camera.anchored(
                world: fitted.centerWorld, at: Point(area.midX * scale, area.midY * scale), zoom: fitted.zoom,
                bearing: 0, pixelWidth: pixelWidth, pixelHeight: pixelHeight, scale: scale)
        }
    }

    // MARK: - Alternates

    /// The alternates the strategy draws, with their labels' rectangles where the label's
    /// anchor (the alternate's middle) is inside the map area.
    func alternateLabels(
        camera: Camera, map: Rect, into layout: inout NavigationLayout
    ) throws(RasterError)
        -> [(index: Int, label: String)]
    {
        guard let route, isGuiding else { return [] }
        let shown = min(route.alternates.count, settings.alternateRoutesStrategy.maximumShown)
        var result: [(index: Int, label: String)] = []
        let scale = Double(options.scale)
        for index in 0..<shown {
            let alternate = route.alternates[index]
            let label = NavigationText.difference(seconds: alternate.durationSeconds - route.totalSeconds)
            result.append((index, label))
            let anchor = camera.point(world: alternate.midpoint)
            let x = anchor.x / scale
            let y = anchor.y / scale
            guard map.contains(x: x, y: y) else { continue }
            let width = try TextLayout(text: label, font: Font.dejaVuSans(bold: true), size: 14 * scale).width / scale + 20
            layout.set("alternateRouteLabel\(index)", Rect(x: (x - width / 2).rounded(), y: (y - 36).rounded(), width: width, height: 28))
        }
        return result
    }
}
