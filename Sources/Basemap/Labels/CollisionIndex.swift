// Boxes already taken on the picture (labels, keep-out rectangles, the attribution), in a
// uniform grid so that testing a new box looks at its neighbourhood only.

import Raster

struct CollisionIndex {
    private let cellSize = 64.0
    private let columns: Int
    private let rows: Int
    private var cells: [[Int]]
    private var boxes: [Rect] = []

    init(width: Int, height: Int) {
        columns = max(1, Int((Double(width) / cellSize).rounded(.up)))
        rows = max(1, Int((Double(height) / cellSize).rounded(.up)))
        cells = [[Int]](repeating: [], count: columns * rows)
    }

    private func cellRange(_ box: Rect) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        guard box.x.isFinite, box.y.isFinite, box.maxX.isFinite, box.maxY.isFinite else { return nil }
        let x0 = min(max(Int((box.x / cellSize).rounded(.down)), 0), columns - 1)
        let x1 = min(max(Int((box.maxX / cellSize).rounded(.down)), 0), columns - 1)
        let y0 = min(max(Int((box.y / cellSize).rounded(.down)), 0), rows - 1)
        let y1 = min(max(Int((box.maxY / cellSize).rounded(.down)), 0), rows - 1)
        return (x0...x1, y0...y1)
    }

    /// True when the box overlaps a box already taken.
    func collides(_ box: Rect) -> Bool {
        guard let (xs, ys) = cellRange(box) else { return true }
        for y in ys {
            for x in xs {
                for index in cells[y * columns + x] where boxes[index].intersects(box) { return true }
            }
        }
        return false
    }

    /// Takes a box.
    mutating func insert(_ box: Rect) {
        guard let (xs, ys) = cellRange(box) else { return }
        let index = boxes.count
        boxes.append(box)
        for y in ys {
            for x in xs { cells[y * columns + x].append(index) }
        }
    }
}
