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
//   exact area of the pixel square inside the polygon; coverage goes out through a Blitter
//   as per-pixel runs and constant spans;
// - the fill rule applied to a summed area is exact only where the winding number inside a
//   pixel takes two neighbouring values ({0, 1}, {1, 2}, ...; FreeType and AGG stop here).
//   Where parts of one fill overlap (neighbours' outlines along a shared wall, lines
//   crossing) it is not: two half-covering layers would give a full pixel, where Cairo's
//   sampling, and the truth, give the half of their union. So each row is cut into
//   clusters of adjacent cells (between clusters the winding is constant over the row's
//   height); a cluster whose edges all run one way between safe windings is swept as
//   summed; any other is handed, with the parts of edges inside it (portions, recorded as
//   the segments are walked), to OverlapResolver, which covers the filled region once.
// Buffers are kept between draws, so steady-state drawing allocates nothing.

struct ScanConverter: CellSink {
    /// One pixel's accumulated contribution.
    struct Cell {
        var x: Int32
        var y: Int32
        var cover: Int32
        var area: Int32
        /// The sum of the contributions' |cover|: equal to |cover| when all edges run one way.
        var magnitude: Int32
    }

    private(set) var width = 0
    private(set) var height = 0
    /// Whether clusters that can overlap are resolved (see the file comment); without it the
    /// summed area is used throughout, which is exact for shapes that only abut or nest.
    private(set) var resolvesOverlaps = true
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
    private var currentMagnitude = 0
    /// Edge portions per row, for clusters whose summed area is not their coverage.
    private var overlaps = OverlapResolver()

    /// Forgets all cells and sets the clip size and whether overlaps are resolved.
    mutating func reset(width: Int, height: Int, resolvesOverlaps: Bool = true) {
        self.width = width
        self.height = height
        self.resolvesOverlaps = resolvesOverlaps
        cells.removeAll(keepingCapacity: true)
        minRow = Int.max
        maxRow = Int.min
        currentX = -1
        currentY = -1
        currentCover = 0
        currentArea = 0
        currentMagnitude = 0
        overlaps.reset()
    }

    /// True when no cell has been recorded since the last reset.
    var isEmpty: Bool { cells.isEmpty && currentCover == 0 && currentArea == 0 }

    // MARK: - Walking segments through cells

    /// Adds a segment from (x0, y0) to (x1, y1), 24.8 fixed point, clipped to the canvas.
    mutating func addLine(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) {
        if y0 == y1 {
            if resolvesOverlaps { touchHorizontal(x0, x1, y0) }
            return
        }
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
            if resolvesOverlaps { overlaps.record(row: row, xTop, top - base, xBottom, bottom - base, sign) }
            Self.renderScanline(row, xTop, top - base, xBottom, bottom - base, sign, into: &self)
            top = bottom
            xTop = xBottom
            row += 1
        }
    }

    /// A horizontal edge inside a row changes no cover, but the winding above it differs from
    /// below: the cells it passes are touched (with nothing) so that the sweep's clusters
    /// hold it and the gaps between clusters keep one winding over the row's height.
    private mutating func touchHorizontal(_ x0: Int, _ x1: Int, _ y: Int) {
        let row = y >> 8
        guard y & 255 != 0, row < height else { return }
        for cell in (min(x0, x1) >> 8)...(max(x0, x1) >> 8) { addCell(cell, row, 0, 0) }
    }

    /// Adds the part of a segment inside pixel row `row`, from (xA, fyA) to (xB, fyB) with
    /// 0 ≤ fyA < fyB ≤ 256 row-local, to the cells it passes; `sign` is +1 for edges going
    /// down, -1 going up.
    @inline(__always)
    static func renderScanline<Sink: CellSink>(
        _ row: Int, _ xA: Int, _ fyA: Int, _ xB: Int, _ fyB: Int, _ sign: Int, into sink: inout Sink
    ) {
        let cellA = xA >> 8
        let cellB = xB >> 8
        if cellA == cellB {
            let base = cellA << 8
            let dy = fyB - fyA
            sink.addCell(cellA, row, sign * dy, sign * dy * (xA - base + xB - base))
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
                sink.addCell(cell, row, sign * dy, sign * dy * (x - (cell << 8) + 256))
                x = boundary
                fy = nextFy
                cell += 1
            }
        } else {
            while cell > cellB {
                let boundary = cell << 8
                let nextFy = fyA + Self.divideRounded(dyTotal * (xA - boundary), -dx)
                let dy = nextFy - fy
                sink.addCell(cell, row, sign * dy, sign * dy * (x - boundary))
                x = boundary
                fy = nextFy
                cell -= 1
            }
        }
        let dy = fyB - fy
        let base = cell << 8
        sink.addCell(cell, row, sign * dy, sign * dy * (x - base + xB - base))
    }

    /// numerator / denominator rounded to nearest, for a positive denominator: halves the
    /// fixed-point error of truncation and keeps it unbiased.
    @inline(__always)
    static func divideRounded(_ numerator: Int, _ denominator: Int) -> Int {
        numerator >= 0 ? (numerator + denominator / 2) / denominator : -((denominator / 2 - numerator) / denominator)
    }

    @inline(__always)
    mutating func addCell(_ x: Int, _ y: Int, _ cover: Int, _ area: Int) {
        if x == currentX && y == currentY {
            currentCover += cover
            currentArea += area
            currentMagnitude += cover < 0 ? -cover : cover
            return
        }
        flushCell()
        currentX = x
        currentY = y
        currentCover = cover
        currentArea = area
        currentMagnitude = cover < 0 ? -cover : cover
    }

    private mutating func flushCell() {
        // When overlaps are resolved, a cell an edge passed is kept even when its contributions
        // are zero or cancel: clusters must hold every column an edge passes (OverlapResolver).
        if (resolvesOverlaps || currentCover != 0 || currentArea != 0) && currentX < width && currentX >= 0 {
            // Truncation only matters for thousands of edges overlapping in one pixel: wrong
            // coverage there, never a trap.
            cells.append(
                Cell(
                    x: Int32(currentX), y: Int32(currentY), cover: Int32(truncatingIfNeeded: currentCover),
                    area: Int32(truncatingIfNeeded: currentArea), magnitude: Int32(truncatingIfNeeded: currentMagnitude)))
            if currentY < minRow { minRow = currentY }
            if currentY > maxRow { maxRow = currentY }
        }
        currentCover = 0
        currentArea = 0
        currentMagnitude = 0
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
        let resolving = resolvesOverlaps
        var overlaps = self.overlaps
        self.overlaps = OverlapResolver()
        overlaps.prepare(firstRow: firstRow, rowCount: rowCount, width: width)
        defer { self.overlaps = overlaps }
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
                            evenOdd: evenOdd, resolving: resolving, run: run, overlaps: &overlaps, blitter: &blitter)
                    }
                }
            }
        }
    }

    /// Counting sort of `cells` by column, in place (through `sorted` as scratch).
    private mutating func sortByColumn() {
        if columnStarts.count < width + 1 { columnStarts = [Int32](repeating: 0, count: width + 1) }
        if sorted.count < cells.count {
            sorted = [Cell](repeating: Cell(x: 0, y: 0, cover: 0, area: 0, magnitude: 0), count: cells.count)
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
            sorted = [Cell](repeating: Cell(x: 0, y: 0, cover: 0, area: 0, magnitude: 0), count: cells.count)
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

    /// Sweeps one row's cells (ordered by x) cluster by cluster: a cluster is a run of cells
    /// in adjacent columns; the gap after it has one winding over the whole row height and is
    /// a constant span.
    private static func sweepRow<B: Blitter>(
        _ cells: UnsafeMutableBufferPointer<Cell>, _ start: Int, _ end: Int, y: Int, width: Int,
        evenOdd: Bool, resolving: Bool, run: UnsafeMutablePointer<UInt8>, overlaps: inout OverlapResolver,
        blitter: inout B
    ) {
        var cover = 0
        var index = start
        var runStart = -1
        var runEnd = -1
        while index < end {
            let first = Int(cells[index].x)
            // Find the cluster's end, its winding change and whether its edges all run one way.
            var last = first
            var delta = 0
            var magnitude = 0
            var scan = index
            while scan < end && Int(cells[scan].x) <= last + 1 {
                last = Int(cells[scan].x)
                delta += Int(cells[scan].cover)
                magnitude += Int(cells[scan].magnitude)
                scan += 1
            }
            if runEnd != first {
                if runStart >= 0 {
                    blitter.blitRow(y: y, x: runStart, alphas: run + runStart, count: runEnd - runStart)
                }
                runStart = first
            }
            if !resolving || Self.summedAreaIsExact(before: cover, delta: delta, magnitude: magnitude, evenOdd: evenOdd) {
                while index < scan {
                    let x = Int(cells[index].x)
                    var area = 0
                    while index < scan && Int(cells[index].x) == x {
                        cover += Int(cells[index].cover)
                        area += Int(cells[index].area)
                        index += 1
                    }
                    run[x] = Self.alpha(cover * 512 - area, evenOdd: evenOdd)
                }
            } else {
                overlaps.resolve(
                    row: y, columns: first...last, winding: cover >> 8, evenOdd: evenOdd, into: run)
                cover += delta
                index = scan
            }
            runEnd = last + 1
            let next = index < end ? Int(cells[index].x) : width
            if next > last + 1 && cover != 0 {
                let spanAlpha = Self.alpha(cover * 512, evenOdd: evenOdd)
                if spanAlpha != 0 {
                    blitter.blitRow(y: y, x: runStart, alphas: run + runStart, count: runEnd - runStart)
                    runStart = -1
                    runEnd = -1
                    blitter.blitSpan(y: y, x: last + 1, count: next - last - 1, alpha: spanAlpha)
                }
            }
        }
        if runStart >= 0 {
            blitter.blitRow(y: y, x: runStart, alphas: run + runStart, count: runEnd - runStart)
        }
    }

    /// True when the fill rule applied to a cluster's summed area gives its coverage: its
    /// edges all run one way (|cover| sums to the winding change), so at every height the
    /// winding steps monotonically from `before` to `before + delta` (cover units, 256 per
    /// winding level), and those windings are two neighbouring values or, under nonzero, all
    /// of one sign.
    @inline(__always)
    static func summedAreaIsExact(before: Int, delta: Int, magnitude: Int, evenOdd: Bool) -> Bool {
        guard magnitude == (delta < 0 ? -delta : delta) else { return false }
        let after = before + delta
        let low = min(before, after)
        let high = max(before, after)
        if high - low <= 256 { return true }
        return !evenOdd && (low >= 256 || high <= -256)
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
