// The pickup ETA badge: a pill above the pickup marker's icon, centred on it, with the label
// in bold. Its frame is snapped to whole pixels so the pill's straight edges stay crisp.

import Raster
import Styling

/// The ETA badge, laid out.
struct Badge {
    var label: String
    var layout: TextLayout
    var style: ETALabelStyle
    var scale: Double

    /// DejaVu Sans's cap height as a fraction of the em (digits are as tall): centring it
    /// centres the label optically.
    static let capHeight = 0.729
    /// Pixels (scale 1) between the icon's top and the badge.
    static let gap = 3.0

    init(text: String, style: ETALabelStyle, scale: Double) throws(RasterError) {
        label = text
        layout = try TextLayout(text: text, font: Font.dejaVuSans(bold: true), size: style.fontSize * scale)
        self.style = style
        self.scale = scale
    }

    var height: Double { (style.fontSize * 1.8 * scale).rounded() }
    var width: Double { (layout.width + style.fontSize * 1.5 * scale).rounded() }
    var outline: Double { style.outlineColor.alpha == 0 ? 0 : 1.5 * scale }

    /// Where the pill sits relative to its marker's icon, in order of preference.
    enum Side: CaseIterable { case above, right, left, below }

    /// The pill's frame on one side of a marker's icon, snapped to whole pixels.
    func frame(_ side: Side, of marker: MarkerPlacement, camera: Camera) -> Box {
        let icon = marker.box(camera)
        let gap = Self.gap * scale
        let head = icon.minY + min(icon.width, icon.height) / 2
        let x: Double
        let y: Double
        switch side {
        case .above: (x, y) = (icon.midX - width / 2, icon.minY - gap - height)
        case .below: (x, y) = (icon.midX - width / 2, icon.maxY + gap)
        case .right: (x, y) = (icon.maxX + gap, head - height / 2)
        case .left: (x, y) = (icon.minX - gap - width, head - height / 2)
        }
        return Box(minX: x.rounded(), minY: y.rounded(), maxX: x.rounded() + width, maxY: y.rounded() + height)
    }

    /// The first side whose pill stays inside the image and clear of the other markers'
    /// icons (the vehicle often sits right above the pickup); above when none is.
    func placement(for marker: MarkerPlacement, among markers: [MarkerPlacement], camera: Camera) -> Box {
        let others = markers.filter { $0.marker.type != marker.marker.type }.map { $0.box(camera) }
        let image = Box(minX: 0, minY: 0, maxX: Double(camera.pixelWidth), maxY: Double(camera.pixelHeight))
        for side in Side.allCases {
            let box = frame(side, of: marker, camera: camera)
            if image.contains(box.inset(by: -outline)), !others.contains(where: { $0.intersects(box.inset(by: -outline)) }) { return box }
        }
        return frame(.above, of: marker, camera: camera)
    }

    /// What the camera must keep in view for the badge.
    func fitItem(above marker: MarkerPlacement) -> FitItem {
        let a = marker.anchor
        let centerOffset = marker.width * marker.scale / 2 - a.x
        return FitItem(
            world: marker.world, left: width / 2 - centerOffset + outline + 1, right: width / 2 + centerOffset + outline + 1,
            up: a.y + Self.gap * scale + height + outline + 1, down: 0)
    }

    /// Adds the pill and the label at `box`.
    func draw(at box: Box, into operations: inout [DisplayList.Operation]) {
        operations.append(
            .roundedRectangle(
                .init(
                    x: box.minX, y: box.minY, width: width, height: height, radius: height / 2, fill: style.backgroundColor,
                    stroke: outline > 0 ? style.outlineColor : nil, strokeWidth: outline > 0 ? outline : nil)))
        let baseline = box.minY + height / 2 + Self.capHeight * layout.size / 2
        operations.append(
            .text(
                .init(
                    text: label, origin: Point(box.minX + (width - layout.width) / 2, baseline),
                    size: layout.size, color: style.textColor, bold: true)))
    }
}

/// An axis-aligned rectangle in device pixels.
struct Box: Equatable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    var width: Double { maxX - minX }
    var height: Double { maxY - minY }
    var midX: Double { (minX + maxX) / 2 }

    func contains(_ other: Box) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    func intersects(_ other: Box) -> Bool {
        other.minX < maxX && other.maxX > minX && other.minY < maxY && other.maxY > minY
    }

    /// Grown by `-amount` on every side (shrunk for positive amounts).
    func inset(by amount: Double) -> Box {
        Box(minX: minX + amount, minY: minY + amount, maxX: maxX - amount, maxY: maxY - amount)
    }
}

extension Rect {
    /// The rectangle a box spans.
    init(_ box: Box) {
        self.init(x: box.minX, y: box.minY, width: box.width, height: box.height)
    }
}
