// Scan converter with exact-area coverage, the cell-accumulation method of FreeType's
// "gray" rasteriser, AGG and Blend2D. Contract:
// - input: line segments in 24.8 fixed point, already clipped by the EdgeBuilder to
//   y ∈ [0, height·256] and x ∈ [0, width·256]; segments of a closed contour cancel
//   their cover exactly on every row;
// - each segment is walked through the pixel cells it touches; a cell gains `cover` (the
//   signed height of the segment inside it, 256 per pixel) and `area` (cover times twice
//   the mean x offset inside the cell); consecutive contributions to one cell merge, new
//   cells are appended to one flat array (no per-pixel supersampling, no linked lists);
// - `sweep` buckets cells by row (counting sort), orders each row by x, accumulates cover
//   from left to right and turns winding·area into coverage with the fill rule, giving the
//   exact area of the pixel square inside the polygon wherever edges do not cross inside
//   one pixel; coverage goes out through a Blitter as per-pixel runs and constant spans.
// Limitation, shared with FreeType and AGG: the fill rule applies to the summed area, so
// where parts of one fill overlap inside a single pixel that pixel can be over-covered
// (two 50% layers give 100%, not the 50% of their union). The stroker therefore avoids
// emitting overlapping outline where it can (see Stroker).
// Buffers are kept between draws, so steady-state drawing allocates nothing.

struct ScanConverter {
    /// One pixel's accumulated contribution.
    struct Cell {
        var x: Int32
        var y: Int32
        var cover: Int32
        var area: Int32
    }

    private(set) var width = 0
    private(set) var height = 0
    private var cells: [Cell] = []
    private var sorted: [Cell] = []
    private var rowStarts: [Int32] = []
    private var columnStarts: [Int32] = []
    private var runAlphas: [UInt8] = []
    private var minRow = Int.max
    private var maxRow = Int.min
    // The cell being accumulated; flushed into `cells` when the walk leaves it.
    private var currentX = -1
    private var currentY = -1
    private var currentCover = 0
    private var currentArea = 0

    /// Forgets all cells and sets the clip size.
    mutating func reset(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells.removeAll(keepingCapacity: true)
        minRow = Int.max
        maxRow = Int.min
        currentX = -1
        currentY = -1
        currentCover = 0
        currentArea = 0
    }

    /// True when no cell has been recorded since the last reset.
    var isEmpty: Bool { cells.isEmpty && currentCover == 0 && currentArea == 0 }

    // MARK: - Walking segments through cells

    /// Adds a segment from (x0, y0) to (x1, y1), 24.8 fixed point, clipped to the canvas.
    mutating func addLine(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 == y1 { return }
        let sign: Int
        let (xa, ya, xb, yb): (Int, Int, Int, Int)
        if y0 < y1 {
            (xa, ya, xb, yb) = (x0, y0, x1, y1)
            sign = 1
        } else {
            (xa, ya, xb, yb) = (x1, y1, x0, y0)
            sign = -1
        }
        let dx = xb - xa
        let dy = yb - ya
        var row = ya >> 8
        var top = ya
        var xTop = xa
        while top < yb {
            let bottom = min((row + 1) << 8, yb)
            let xBottom = bottom == yb ? xb : xa + Self.divideRounded(dx * (bottom - ya), dy)
            let base = row << 8
            renderScanline(row, xTop, top - base, xBottom, bottom - base, sign)
            top = bottom
            xTop = xBottom
            row += 1
        }
    }

    /// Adds the part of a segment inside pixel row `row`, from (xA, fyA) to (xB, fyB) with
    /// 0 ≤ fyA < fyB ≤ 256 row-local; `sign` is +1 for edges going down, -1 going up.
    private mutating func renderScanline(_ row: Int, _ xA: Int, _ fyA: Int, _ xB: Int, _ fyB: Int, _ sign: Int) {
        let cellA = xA >> 8
        let cellB = xB >> 8
        if cellA == cellB {
            let base = cellA << 8
            let dy = fyB - fyA
            addCell(cellA, row, sign * dy, sign * dy * (xA - base + xB - base))
            return
        }
        let dx = xB - xA
        let dyTotal = fyB - fyA
        var x = xA
        var fy = fyA
        var cell = cellA
        if dx > 0 {
            while cell < cellB {
                let boundary = (cell + 1) << 8
                let nextFy = fyA + Self.divideRounded(dyTotal * (boundary - xA), dx)
                let dy = nextFy - fy
                addCell(cell, row, sign * dy, sign * dy * (x - (cell << 8) + 256))
                x = boundary
                fy = nextFy
                cell += 1
            }
        } else {
            while cell > cellB {
                let boundary = cell << 8
                let nextFy = fyA + Self.divideRounded(dyTotal * (xA - boundary), -dx)
                let dy = nextFy - fy
                addCell(cell, row, sign * dy, sign * dy * (x - boundary))
                x = boundary
                fy = nextFy
                cell -= 1
            }
        }
        let dy = fyB - fy
        let base = cell << 8
        addCell(cell, row, sign * dy, sign * dy * (x - base + xB - base))
    }

    /// numerator / denominator rounded to nearest, for a positive denominator: halves the
    /// fixed-point error of truncation and keeps it unbiased.
    @inline(__always)
    static func divideRounded(_ numerator: Int, _ denominator: Int) -> Int {
        numerator >= 0 ? (numerator + denominator / 2) / denominator : -((denominator / 2 - numerator) / denominator)
    }

    @inline(__always)
    private mutating func addCell(_ x: Int, _ y: Int, _ cover: Int, _ area: Int) {
        if x == currentX && y == currentY {
            currentCover += cover
            currentArea += area
            return
        }
        flushCell()
        currentX = x
        currentY = y
        currentCover = cover
        currentArea = area
    }

    private mutating func flushCell() {
        if (currentCover != 0 || currentArea != 0) && currentX < width && currentX >= 0 {
            // Truncation only matters for thousands of edges overlapping in one pixel: wrong
            // coverage there, never a trap.
            cells.append(
                Cell(
                    x: Int32(currentX), y: Int32(currentY), cover: Int32(truncatingIfNeeded: currentCover),
                    area: Int32(truncatingIfNeeded: currentArea)))
            if currentY < minRow { minRow = currentY }
            if currentY > maxRow { maxRow = currentY }
        }
        currentCover = 0
        currentArea = 0
        currentX = -1
        currentY = -1
    }

    // MARK: - Sweeping cells into coverage

    /// Turns the accumulated cells into coverage and hands it to the blitter, row by row.
    mutating func sweep<B: Blitter>(fillRule: FillRule, into blitter: inout B) {
        flushCell()
        guard !cells.isEmpty, minRow <= maxRow else { return }
        let rowCount = maxRow - minRow + 1
        // Dense cell sets (maps: thousands of small polygons) are ordered by x once for all
        // rows with a counting sort; the row bucketing after it is stable, so every row comes
        // out sorted. Sparse ones sort each row's handful of cells instead.
        let presorted = cells.count > 12 * rowCount && cells.count > width
        if presorted { sortByColumn() }
        bucketByRow(rowCount: rowCount)
        if runAlphas.count < width { runAlphas = [UInt8](repeating: 0, count: width) }
        let evenOdd = fillRule == .evenOdd
        let width = self.width
        let firstRow = minRow
        sorted.withUnsafeMutableBufferPointer { sortedCells in
            rowStarts.withUnsafeBufferPointer { starts in
                runAlphas.withUnsafeMutableBufferPointer { run in
                    guard let run = run.baseAddress else { return }
                    for rowIndex in 0..<rowCount {
                        let start = Int(starts[rowIndex])
                        let end = Int(starts[rowIndex + 1])
                        if start == end { continue }
                        if !presorted { Self.sortRow(sortedCells, start, end) }
                        Self.sweepRow(
                            sortedCells, start, end, y: firstRow + rowIndex, width: width,
                            evenOdd: evenOdd, run: run, blitter: &blitter)
                    }
                }
            }
        }
    }

    /// Counting sort of `cells` by column, in place (through `sorted` as scratch).
    private mutating func sortByColumn() {
        if columnStarts.count < width + 1 { columnStarts = [Int32](repeating: 0, count: width + 1) }
        if sorted.count < cells.count {
            sorted = [Cell](repeating: Cell(x: 0, y: 0, cover: 0, area: 0), count: cells.count)
        }
        let columns = width
        cells.withUnsafeBufferPointer { cells in
            columnStarts.withUnsafeMutableBufferPointer { starts in
                for index in 0...columns { starts[index] = 0 }
                for cell in cells { starts[Int(cell.x) + 1] += 1 }
                for index in 1...columns { starts[index] += starts[index - 1] }
                sorted.withUnsafeMutableBufferPointer { out in
                    for cell in cells {
                        let slot = Int(cell.x)
                        out[Int(starts[slot])] = cell
                        starts[slot] += 1
                    }
                }
            }
        }
        // The sorted cells become `cells` (no copy): cut to the cell count, since the scratch
        // may be longer from an earlier draw.
        let count = cells.count
        swap(&cells, &sorted)
        cells.removeLast(cells.count - count)
    }

    /// Counting sort of `cells` by row into `sorted`; `rowStarts[i]` is row i's first cell.
    private mutating func bucketByRow(rowCount: Int) {
        if rowStarts.count < rowCount + 1 {
            rowStarts = [Int32](repeating: 0, count: rowCount + 1)
        }
        if sorted.count < cells.count {
            sorted = [Cell](repeating: Cell(x: 0, y: 0, cover: 0, area: 0), count: cells.count)
        }
        let firstRow = Int32(minRow)
        cells.withUnsafeBufferPointer { cells in
            rowStarts.withUnsafeMutableBufferPointer { starts in
                for index in 0...rowCount { starts[index] = 0 }
                for cell in cells { starts[Int(cell.y - firstRow) + 1] += 1 }
                for index in 1...rowCount { starts[index] += starts[index - 1] }
                sorted.withUnsafeMutableBufferPointer { out in
                    // starts[r] serves as row r's insertion cursor; afterwards it holds row r's
                    // end, so shifting everything up one slot restores the starts.
                    for cell in cells {
                        let slot = Int(cell.y - firstRow)
                        out[Int(starts[slot])] = cell
                        starts[slot] += 1
                    }
                }
                for index in stride(from: rowCount, to: 0, by: -1) { starts[index] = starts[index - 1] }
                starts[0] = 0
            }
        }
    }

    /// Orders one row's cells by x: insertion sort for the usual handful, else the library sort.
    @inline(__always)
    private static func sortRow(_ cells: UnsafeMutableBufferPointer<Cell>, _ start: Int, _ end: Int) {
        if end - start <= 24 {
            var i = start + 1
            while i < end {
                let cell = cells[i]
                var j = i - 1
                while j >= start && cells[j].x > cell.x {
                    cells[j + 1] = cells[j]
                    j -= 1
                }
                cells[j + 1] = cell
                i += 1
            }
        } else {
            var slice = UnsafeMutableBufferPointer(rebasing: cells[start..<end])
            slice.sort { $0.x < $1.x }
        }
    }

    private static func sweepRow<B: Blitter>(
        _ cells: UnsafeMutableBufferPointer<Cell>, _ start: Int, _ end: Int, y: Int, width: Int,
        evenOdd: Bool, run: UnsafeMutablePointer<UInt8>, blitter: inout B
    ) {
        var cover = 0
        var index = start
        var runStart = -1
        var runEnd = -1
        while index < end {
            let x = Int(cells[index].x)
            var area = 0
            while index < end && Int(cells[index].x) == x {
                cover += Int(cells[index].cover)
                area += Int(cells[index].area)
                index += 1
            }
            let alpha = Self.alpha(cover * 512 - area, evenOdd: evenOdd)
            if runEnd != x {
                if runStart >= 0 {
                    blitter.blitRow(y: y, x: runStart, alphas: run + runStart, count: runEnd - runStart)
                }
                runStart = x
            }
            run[x] = alpha
            runEnd = x + 1
            let next = index < end ? Int(cells[index].x) : width
            if next > x + 1 && cover != 0 {
                let spanAlpha = Self.alpha(cover * 512, evenOdd: evenOdd)
                if spanAlpha != 0 {
                    blitter.blitRow(y: y, x: runStart, alphas: run + runStart, count: runEnd - runStart)
                    runStart = -1
                    runEnd = -1
                    blitter.blitSpan(y: y, x: x + 1, count: next - x - 1, alpha: spanAlpha)
                }
            }
        }
        if runStart >= 0 {
            blitter.blitRow(y: y, x: runStart, alphas: run + runStart, count: runEnd - runStart)
        }
    }

    /// Coverage of a pixel from its signed winding area (131072 = one full pixel at winding
    /// 1) under the fill rule, rounded to the nearest of 0…255.
    @inline(__always)
    static func alpha(_ value: Int, evenOdd: Bool) -> UInt8 {
        var magnitude = value < 0 ? -value : value
        if evenOdd {
            magnitude &= 262_143
            if magnitude > 131_072 { magnitude = 262_144 - magnitude }
        } else if magnitude > 131_072 {
            magnitude = 131_072
        }
        return UInt8(truncatingIfNeeded: (magnitude * 255 + 65_536) >> 17)
    }
}
