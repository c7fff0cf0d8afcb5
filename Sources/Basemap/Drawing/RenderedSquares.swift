// Pictures of the basemap's fills and lines, kept per square of a fixed device-pixel grid and
// put together by copying, so that a picture drawn again over the same ground (a preview
// refreshed as its car moves, a map panned) skips the rasterising of everything but its
// labels. Contract:
// - only views at a whole zoom, bearing 0, whose pixel edges fall on whole device pixels of
//   the world (the caller snaps its camera: Render's Camera.pixelAligned()) use the grid;
//   then a square's pixels are the same in every such view that shows it;
// - a square is drawn on its own with a margin of map around it (wider than half the widest
//   line), so lines and their joins cross square edges as in a whole picture; only a dash
//   pattern's phase may differ from one square to the next (it starts where a line enters
//   the drawn area);
// - a view's squares are drawn only the second time they are asked for: the first picture
//   of a place (a cold one) is drawn directly, as it costs a few times less than drawing its
//   squares with their margins;
// - the pictures are bounded in bytes, the least recently used evicted first (BoundedCache).

import Caching
import Foundation
import Geo
import Raster
import Synchronization

/// The grid of squares under an aligned view.
struct SquareGrid {
    /// The side of a square in device pixels.
    static let side = 256
    /// Device-pixel coordinates, in the world, of the view's top-left corner.
    let left: Int
    let top: Int
    let view: MapView

    /// The grid under `view`, or nil when the view does not line up with it.
    init?(view: MapView) {
        guard view.isDrawable, view.bearing == 0, view.zoom == view.zoom.rounded() else { return nil }
        let origin = view.worldToDevice(tileZoom: 0)
        let left = -origin.tx
        let top = -origin.ty
        guard abs(left - left.rounded()) < 1e-6, abs(top - top.rounded()) < 1e-6, abs(left) < 1e12, abs(top) < 1e12 else { return nil }
        self.left = Int(left.rounded())
        self.top = Int(top.rounded())
        self.view = view
    }

    /// The squares the view shows, as (column, row) in the grid.
    var squares: [(column: Int, row: Int)] {
        func cells(_ start: Int, _ length: Int) -> ClosedRange<Int> {
            Int((Double(start) / Double(Self.side)).rounded(.down))...Int((Double(start + length - 1) / Double(Self.side)).rounded(.down))
        }
        return cells(top, view.pixelHeight).flatMap { row in cells(left, view.pixelWidth).map { (column: $0, row: row) } }
    }

    /// The view that draws a square with `margin` device pixels of map around it.
    func squareView(column: Int, row: Int, margin: Int) -> MapView {
        let scale = view.scale
        let centerX = (Double(column * Self.side) + Double(Self.side) / 2) / scale
        let centerY = (Double(row * Self.side) + Double(Self.side) / 2) / scale
        let size = Self.side + 2 * margin
        return MapView(
            center: WebMercator.latLng(x: centerX, y: centerY, zoom: view.zoom), zoom: view.zoom, pixelWidth: size,
            pixelHeight: size, scale: scale)
    }
}

/// Pictures of grid squares, shared by every draw of a basemap and its restyled twins.
final class RenderedSquares: Sendable {
    struct Key: Hashable, Sendable {
        let style: String
        let zoom: Int
        let scale: Double
        let column: Int
        let row: Int
    }

    /// A square's picture and whether it is opaque (then it replaces what is under it).
    struct Picture: Sendable {
        let image: Image
        let isOpaque: Bool
    }

    private let pictures: BoundedCache<Key, Picture>
    /// Squares asked for once: the next ask draws them.
    private let asked = Mutex(Set<Key>())

    /// At most `capacity` bytes of pictures.
    init(capacity: Int) {
        let bytesPerSquare = SquareGrid.side * SquareGrid.side * 4
        pictures = BoundedCache(capacity: max(capacity / bytesPerSquare, 1) * 4, costLimit: max(capacity, 0))
    }

    func picture(_ key: Key) -> Picture? { pictures.value(forKey: key) }

    func store(_ picture: Picture, for key: Key) {
        pictures.setValue(picture, forKey: key, cost: picture.image.width * picture.image.height * 4)
    }

    /// Records that `keys` were asked for; true when every one of them had been before.
    func askedBefore(_ keys: [Key]) -> Bool {
        asked.withLock { asked in
            let before = keys.allSatisfy { asked.contains($0) }
            // Bounded: forgetting every ask only delays the next squares by one draw.
            if asked.count > 65_536 { asked.removeAll(keepingCapacity: true) }
            asked.formUnion(keys)
            return before
        }
    }

    /// Bytes held now.
    var byteCount: Int { pictures.totalCost }
}
