// Which tiles a view needs and where they go. Contract: the view's rectangle is covered by
// the squares of tiles at one zoom (the cover zoom: floor(zoom − 1) for vector tiles,
// round(zoom) for raster tiles, clamped to the archive's zoom range, so views past its
// maximum are drawn from its deepest tiles, scaled up); each square's corners are computed
// once from integers through one transform, so neighbours share their edges exactly. A
// square whose tile the archive lacks is filled from the nearest lower zoom that has data
// (clipped to the square). The world repeats east and west; rows past the poles are empty.

import Foundation
import Raster

/// The squares of tiles covering a view.
struct TileCover {
    /// Past this many squares a view is not drawn (a huge picture far below the archive's
    /// zoom range): drawing it would take seconds.
    static let maximumTiles = 1024

    let zoom: Int
    let squares: [(tile: TileID, unwrappedX: Int)]
    let worldToDevice: Transform

    /// The squares at the cover zoom for a view, or nil when there are too many.
    init?(view: MapView, minZoom: Int, maxZoom: Int, vector: Bool) {
        let wanted = vector ? Int((view.zoom - 1).rounded(.down)) : Int(view.zoom.rounded())
        zoom = min(max(wanted, minZoom, 0), maxZoom)
        worldToDevice = view.worldToDevice(tileZoom: zoom)
        guard let inverse = worldToDevice.inverted() else { return nil }
        let width = Double(view.pixelWidth)
        let height = Double(view.pixelHeight)
        let corners = [Point(0, 0), Point(width, 0), Point(width, height), Point(0, height)].map(inverse.apply)
        let minX = corners.map(\.x).min() ?? 0
        let maxX = corners.map(\.x).max() ?? 0
        let minY = corners.map(\.y).min() ?? 0
        let maxY = corners.map(\.y).max() ?? 0
        let size = 1 << zoom
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
        let firstX = Int(minX.rounded(.down))
        let lastX = Int(maxX.rounded(.up)) - 1
        let firstY = max(Int(minY.rounded(.down)), 0)
        let lastY = min(Int(maxY.rounded(.up)) - 1, size - 1)
        guard firstY <= lastY, firstX <= lastX else {
            squares = []
            return
        }
        guard (lastX - firstX + 1) * (lastY - firstY + 1) <= Self.maximumTiles else { return nil }
        var squares: [(tile: TileID, unwrappedX: Int)] = []
        let viewBox = Rect(x: 0, y: 0, width: width, height: height)
        for y in firstY...lastY {
            for x in firstX...lastX {
                // Skip squares a rotated view's bounding box holds but the view does not touch.
                let quad = [
                    Point(Double(x), Double(y)), Point(Double(x + 1), Double(y)), Point(Double(x + 1), Double(y + 1)),
                    Point(Double(x), Double(y + 1)),
                ].map(worldToDevice.apply)
                let box = Rect(x: quad.map(\.x).min() ?? 0, y: quad.map(\.y).min() ?? 0, width: 0, height: 0)
                let bounds = Rect(
                    x: box.x, y: box.y, width: (quad.map(\.x).max() ?? 0) - box.x,
                    height: (quad.map(\.y).max() ?? 0) - box.y)
                guard bounds.intersects(viewBox) else { continue }
                let wrapped = ((x % size) + size) % size
                squares.append((TileID(zoom: zoom, x: wrapped, y: y), x))
            }
        }
        self.squares = squares
    }

    /// The device quad of a square.
    func clip(unwrappedX x: Int, y: Int) -> ConvexClip {
        ConvexClip(
            corners: [
                Point(Double(x), Double(y)), Point(Double(x + 1), Double(y)), Point(Double(x + 1), Double(y + 1)),
                Point(Double(x), Double(y + 1)),
            ].map(worldToDevice.apply))
    }

    /// Source tile coordinates (0…extent) of `source` (an ancestor of, or equal to, the square
    /// at unwrapped column `x`) → device pixels.
    func transform(source: TileID, squareX x: Int, squareY y: Int, extent: Int) -> Transform {
        let levels = zoom - source.zoom
        let factor = Double(1 << levels)
        // The source tile's unwrapped column: the square's, shifted up (floor division).
        let sourceX = Double(x >> levels)
        let sourceY = Double(y >> levels)
        let perUnit = factor / Double(max(extent, 1))
        return Transform(a: perUnit, b: 0, c: 0, d: perUnit, tx: sourceX * factor, ty: sourceY * factor)
            .concatenating(worldToDevice)
    }
}
