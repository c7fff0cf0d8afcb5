// Collecting label candidates from symbol layers: the text each feature's `text-field`
// gives, where it would go (a point, or the pieces of its road clipped to their tile
// squares so that tile buffers do not repeat them), and how it looks. Placement happens
// once every layer has been collected (LabelPlacer).

import Foundation
import Raster
import Synchronization

extension MapPainter {
    mutating func collectLabels(_ layer: StyleLayer, _ properties: SymbolProperties, into placer: inout LabelPlacer) {
        guard let sourceLayer = layer.sourceLayer,
            let layerIndex = basemap.style.layers.firstIndex(where: { $0.id == layer.id })
        else { return }
        var linePieces: [String: (pieces: [[Point]], style: LabelStyle, sortKey: Double, centerOnly: Bool)] = [:]
        var lineOrder: [String] = []
        var sequence = placer.candidateCount
        // Most symbol layers style every label alike: compute that once.
        let featureDependent = [
            properties.size.isFeatureDependent, properties.font.isFeatureDependent,
            properties.color.isFeatureDependent, properties.opacity.isFeatureDependent,
            properties.haloColor.isFeatureDependent, properties.haloWidth.isFeatureDependent,
            properties.padding.isFeatureDependent, properties.maxWidth.isFeatureDependent,
            properties.lineHeight.isFeatureDependent, properties.anchor.isFeatureDependent,
            properties.offset.isFeatureDependent, properties.letterSpacing.isFeatureDependent,
            properties.maxAngle.isFeatureDependent, properties.allowOverlap.isFeatureDependent,
            properties.ignorePlacement.isFeatureDependent,
        ].contains(true)
        let sharedStyle = featureDependent ? nil : labelStyle(properties, EvaluationContext(zoom: styleZoom))
        for square in squares {
            guard case .vector(let tile) = square.content, let tileLayer = tile.layers[sourceLayer] else { continue }
            let map =
                cover.map {
                    $0.transform(
                        source: square.source, squareX: square.unwrappedX, squareY: square.tile.y,
                        extent: tileLayer.extent)
                } ?? .identity
            for selected in features(of: tile, tileLayer, passing: layer) {
                let index = Int(selected)
                let feature = tileLayer.features[index]
                guard feature.type != .unknown else { continue }
                let context = EvaluationContext(zoom: styleZoom, feature: FeatureView(layer: tileLayer, index: index))
                let text = Self.transformText(properties.textField.value(context), properties.transform.value(context))
                guard !text.isEmpty, let style = sharedStyle ?? labelStyle(properties, context) else { continue }
                let sortKey = properties.sortKey?.value(context) ?? 0
                let placement = properties.placement.value(context)
                if placement == "point" {
                    guard let anchor = anchor(of: feature, in: tileLayer, map: map), square.clip.contains(anchor) else { continue }
                    placer.add(
                        LabelCandidate(
                            text: text, layer: layerIndex, sortKey: sortKey, sequence: sequence,
                            placement: .point(anchor), style: style))
                    sequence += 1
                } else {
                    guard feature.type == .lineString || feature.type == .polygon else { continue }
                    var pieces: [[Point]] = []
                    for part in feature.parts {
                        let points = tileLayer.part(Int(part)).map { map.apply(Self.point(tileLayer.points[$0])) }
                        let line = feature.type == .polygon ? points + points.prefix(1) : points
                        pieces += square.clip.clipPolyline(line[...])
                    }
                    if linePieces[text] == nil {
                        lineOrder.append(text)
                        linePieces[text] = ([], style, sortKey, placement == "line-center")
                    }
                    linePieces[text]?.pieces += pieces
                }
            }
        }
        for text in lineOrder {
            guard let entry = linePieces[text] else { continue }
            placer.add(
                LabelCandidate(
                    text: text, layer: layerIndex, sortKey: entry.sortKey, sequence: sequence,
                    placement: .line(entry.pieces, centerOnly: entry.centerOnly), style: entry.style))
            sequence += 1
        }
    }

    private static func point(_ point: TilePoint) -> Point {
        Point(x: Double(point.x), y: Double(point.y))
    }

    /// Where a point label of a feature goes: its first point; a polygon's outer-ring
    /// centroid (its box centre if the centroid is degenerate); a line's middle vertex.
    private func anchor(of feature: PreparedFeature, in layer: PreparedLayer, map: Transform) -> Point? {
        guard let firstPart = feature.parts.first else { return nil }
        let range = layer.part(Int(firstPart))
        guard !range.isEmpty else { return nil }
        switch feature.type {
        case .point:
            return map.apply(Self.point(layer.points[range.lowerBound]))
        case .lineString:
            return map.apply(Self.point(layer.points[(range.lowerBound + range.upperBound) / 2]))
        case .polygon:
            var area = 0.0
            var cx = 0.0
            var cy = 0.0
            var previous = Self.point(layer.points[range.upperBound - 1])
            for index in range {
                let current = Self.point(layer.points[index])
                let cross = previous.x * current.y - current.x * previous.y
                area += cross
                cx += (previous.x + current.x) * cross
                cy += (previous.y + current.y) * cross
                previous = current
            }
            if abs(area) > 1e-9 { return map.apply(Point(cx / (3 * area), cy / (3 * area))) }
            return map.apply(Point(Double(feature.minX + feature.maxX) / 2, Double(feature.minY + feature.maxY) / 2))
        case .unknown:
            return nil
        }
    }

    static func transformText(_ text: String, _ transform: String) -> String {
        let trimmed = hasNoOuterSpace(text) ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch transform {
        case "uppercase": return trimmed.uppercased()
        case "lowercase": return trimmed.lowercased()
        default: return trimmed
        }
    }

    /// True when the text neither starts nor ends with anything trimming could remove: almost
    /// every name, and Foundation's trimming costs a bridged string per feature and draw.
    private static func hasNoOuterSpace(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return true }
        func solid(_ scalar: Unicode.Scalar) -> Bool {
            (0x21...0x7E).contains(scalar.value) || (scalar.value > 0x7F && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil))
        }
        return solid(first) && solid(last)
    }

    private func labelStyle(_ properties: SymbolProperties, _ context: EvaluationContext) -> LabelStyle? {
        let size = properties.size.value(context) * view.scale
        guard size > 0.5, size.isFinite, let font = Self.font(for: properties.font.value(context)) else { return nil }
        let offset = properties.offset.value(context)
        return LabelStyle(
            font: font, size: size, color: properties.color.value(context), opacity: properties.opacity.value(context),
            haloColor: properties.haloColor.value(context), haloWidth: max(properties.haloWidth.value(context), 0) * view.scale,
            padding: max(properties.padding.value(context), 0) * view.scale,
            maxWidth: max(properties.maxWidth.value(context), 1) * size,
            lineHeight: properties.lineHeight.value(context) * size, anchor: properties.anchor.value(context),
            offset: Point(x: (offset.first ?? 0) * size, y: (offset.count > 1 ? offset[1] : 0) * size),
            letterSpacing: properties.letterSpacing.value(context) * size,
            maxAngle: properties.maxAngle.value(context) * .pi / 180,
            allowOverlap: properties.allowOverlap.value(context), ignorePlacement: properties.ignorePlacement.value(context))
    }

    /// DejaVu Sans in the weight and slant the style's first font name asks for.
    static func font(for names: [String]) -> Font? {
        if let known = fonts.withLock({ $0[names] }) { return known }
        let font = loadFont(for: names)
        if let font { fonts.withLock { $0[names] = font } }
        return font
    }

    private static let fonts = Mutex<[[String]: Font]>([:])

    private static func loadFont(for names: [String]) -> Font? {
        let name = names.first?.lowercased() ?? ""
        let bold = name.contains("bold") || name.contains("semibold") || name.contains("black")
        let oblique = name.contains("italic") || name.contains("oblique")
        let directory = (Font.dejaVuSansPath as NSString).deletingLastPathComponent
        let file =
            switch (bold, oblique) {
            case (false, false): "DejaVuSans.ttf"
            case (true, false): "DejaVuSans-Bold.ttf"
            case (false, true): "DejaVuSans-Oblique.ttf"
            case (true, true): "DejaVuSans-BoldOblique.ttf"
            }
        return (try? Font.named("\(directory)/\(file)")) ?? (try? Font.dejaVuSans())
    }
}
