// Overlap resolver: exact coverage for the clusters of a row where the scan converter's
// summed area is not the coverage (see ScanConverter). Contract:
// - input: every edge's part inside each pixel row (a portion: from (xTop, top) to
//   (xBottom, bottom), 24.8 fixed point, row-local 0 ≤ top < bottom ≤ 256, +1 going down),
//   recorded while the segments are walked; then, per cluster, its row, its columns and the
//   winding number left of it, which is the same over the whole row height;
// - the row's height is cut into bands at every portion's ends and wherever two portions
//   cross, so that inside a band each portion spans it fully and their left-to-right order
//   does not change; walking a band's pieces in that order gives each piece's winding on
//   both sides, and only pieces where the filled region (nonzero or even-odd) begins or ends
//   are accumulated, as +1 and −1 edges of that region. The summed area of those is the
//   exact area of the region in each pixel, so parts of the fill that overlap count once;
// - a band is cut at a crossing only while it is at least two units (1/128 px) high; below
//   that, pieces are ordered by their middle, which can misplace a sliver of that height;
// - output: coverages 0…255 for the cluster's columns, written into the caller's run.
// For a fill that never overlaps itself every piece is a boundary, and the result is the
// scan converter's own summed area. Buffers are kept between draws.

/// Receives a cell's cover and area (ScanConverter's units) from a walk along a row.
protocol CellSink {
    mutating func addCell(_ x: Int, _ y: Int, _ cover: Int, _ area: Int)
}

struct OverlapResolver {
    /// An edge's part inside one pixel row.
    struct Portion {
        var row: Int32
        var xTop: Int32
        var top: Int32
        var xBottom: Int32
        var bottom: Int32
        var sign: Int32

        var firstColumn: Int { Int(min(xTop, xBottom)) >> 8 }
        var lastColumn: Int { Int(max(xTop, xBottom)) >> 8 }

        /// x (24.8) where the portion is at row-local height `y`, top ≤ y ≤ bottom.
        @inline(__always)
        func x(at y: Int32) -> Int {
            if y == top { return Int(xTop) }
            if y == bottom { return Int(xBottom) }
            return Int(xTop)
                + ScanConverter.divideRounded(Int(xBottom - xTop) * Int(y - top), Int(bottom - top))
        }
    }

    /// A portion's part inside one band, with its x at the band's top and bottom.
    struct Piece {
        var xTop: Int
        var xBottom: Int
        var sign: Int
    }

    private var portions: [Portion] = []
    private var byRow: [Portion] = []
    private var rowStarts: [Int32] = []
    private var rowCursors: [Int32] = []
    private var columnStarts: [Int32] = []
    private var width = 0
    private var firstRow = 0
    private var rowCount = 0
    private var isBucketed = false
    /// The row last read, and where its unread portions begin.
    private var orderedRow = -1
    private var cursor = 0
    private var selected: [Portion] = []
    private var events: [Int32] = []
    private var bands: [(top: Int32, bottom: Int32)] = []
    private var pieces: [Piece] = []
    private var cover: [Int] = []
    private var area: [Int] = []

    /// Forgets the recorded portions.
    mutating func reset() {
        portions.removeAll(keepingCapacity: true)
        isBucketed = false
    }

    @inline(__always)
    mutating func record(row: Int, _ xTop: Int, _ top: Int, _ xBottom: Int, _ bottom: Int, _ sign: Int) {
        portions.append(
            Portion(
                row: Int32(row), xTop: Int32(truncatingIfNeeded: xTop), top: Int32(top),
                xBottom: Int32(truncatingIfNeeded: xBottom), bottom: Int32(bottom), sign: Int32(sign)))
    }

    /// Readies a sweep over rows `firstRow..<firstRow + rowCount` of a canvas `width` wide;
    /// the portions are bucketed by row only once a cluster needs them.
    mutating func prepare(firstRow: Int, rowCount: Int, width: Int) {
        self.firstRow = firstRow
        self.rowCount = rowCount
        self.width = width
        isBucketed = false
        orderedRow = -1
        if cover.count < width + 2 {
            cover = [Int](repeating: 0, count: width + 2)
            area = [Int](repeating: 0, count: width + 2)
        }
    }

    /// Writes the coverage of `columns` in `row` into `run[columns]`; `winding` is the winding
    /// number left of the cluster.
    mutating func resolve(row: Int, columns: ClosedRange<Int>, winding: Int, evenOdd: Bool, into run: UnsafeMutablePointer<UInt8>) {
        if !isBucketed { bucketByRow() }
        selectPortions(row: row, columns: columns)
        collectEvents()
        // The dense cells are taken out of self while the bands (methods of self) write to them.
        var cover = self.cover
        var area = self.area
        self.cover = []
        self.area = []
        defer {
            self.cover = cover
            self.area = area
        }
        let filledLeft = Self.isFilled(winding, evenOdd: evenOdd)
        cover.withUnsafeMutableBufferPointer { cover in
            area.withUnsafeMutableBufferPointer { area in
                guard let cover = cover.baseAddress, let area = area.baseAddress else { return }
                var sink = DenseCells(first: columns.lowerBound, count: columns.count, cover: cover, area: area)
                for index in 0..<(events.count - 1) {
                    bands.append((events[index], events[index + 1]))
                    while let band = bands.popLast() {
                        resolveBand(band.top, band.bottom, winding: winding, evenOdd: evenOdd, into: &sink)
                    }
                }
                var sum = filledLeft ? 256 : 0
                for index in 0..<columns.count {
                    sum += cover[index]
                    let value = min(max(sum * 512 - area[index], 0), 131_072)
                    run[columns.lowerBound + index] = UInt8(truncatingIfNeeded: (value * 255 + 65_536) >> 17)
                    cover[index] = 0
                    area[index] = 0
                }
            }
        }
    }

    @inline(__always)
    private static func isFilled(_ winding: Int, evenOdd: Bool) -> Bool {
        evenOdd ? winding & 1 != 0 : winding != 0
    }

    /// The row's portions that touch `columns`, into `selected`.
    private mutating func selectPortions(row: Int, columns: ClosedRange<Int>) {
        let rowIndex = row - firstRow
        let start = Int(rowStarts[rowIndex])
        let end = Int(rowStarts[rowIndex + 1])
        if orderedRow != row {
            orderedRow = row
            cursor = start
        }
        selected.removeAll(keepingCapacity: true)
        var index = cursor
        while index < end && byRow[index].firstColumn <= columns.upperBound {
            if byRow[index].lastColumn >= columns.lowerBound { selected.append(byRow[index]) }
            index += 1
        }
        // Clusters come left to right: portions wholly left of this one's end are done.
        while cursor < end && byRow[cursor].lastColumn <= columns.upperBound
            && byRow[cursor].firstColumn <= columns.upperBound
        {
            cursor += 1
        }
    }

    /// The selected portions' ends (and the row's top and bottom), ordered, without repeats.
    private mutating func collectEvents() {
        events.removeAll(keepingCapacity: true)
        events.append(0)
        events.append(256)
        // (0 and 256 come first and stay ordered: every end lies between them.)
        for portion in selected {
            events.append(portion.top)
            events.append(portion.bottom)
        }
        // Insertion sort dropping repeats: a cluster has a handful of ends.
        var kept = 2
        for index in 2..<events.count {
            let value = events[index]
            var slot = kept
            while slot > 0 && events[slot - 1] > value { slot -= 1 }
            if slot > 0 && events[slot - 1] == value { continue }
            var move = kept
            while move > slot {
                events[move] = events[move - 1]
                move -= 1
            }
            events[slot] = value
            kept += 1
        }
        events.removeLast(events.count - kept)
    }

    /// Accumulates the boundary pieces of the band from `top` to `bottom`, or cuts the band
    /// where two pieces cross and queues both halves.
    private mutating func resolveBand(_ top: Int32, _ bottom: Int32, winding: Int, evenOdd: Bool, into sink: inout DenseCells) {
        pieces.removeAll(keepingCapacity: true)
        for portion in selected where portion.top <= top && portion.bottom >= bottom {
            pieces.append(Piece(xTop: portion.x(at: top), xBottom: portion.x(at: bottom), sign: Int(portion.sign)))
        }
        if pieces.isEmpty { return }
        Self.sortByMiddle(&pieces)
        if bottom - top >= 2, let cut = crossing(top, bottom) {
            bands.append((top, cut))
            bands.append((cut, bottom))
            return
        }
        var current = winding
        for piece in pieces {
            let before = Self.isFilled(current, evenOdd: evenOdd)
            current += piece.sign
            let after = Self.isFilled(current, evenOdd: evenOdd)
            if before != after {
                ScanConverter.renderScanline(
                    0, piece.xTop, Int(top), piece.xBottom, Int(bottom), after ? 1 : -1, into: &sink)
            }
        }
    }

    /// Where, strictly inside the band, the first pair of neighbouring pieces whose order
    /// differs at the top and the bottom crosses; nil when no pair does.
    private func crossing(_ top: Int32, _ bottom: Int32) -> Int32? {
        for index in 0..<(pieces.count - 1) {
            let left = pieces[index]
            let right = pieces[index + 1]
            let gapTop = right.xTop - left.xTop
            let gapBottom = right.xBottom - left.xBottom
            guard gapTop < 0 || gapBottom < 0 else { continue }
            let height = Int(bottom - top)
            // The gap changes linearly from gapTop to gapBottom; it is zero at the crossing.
            let span = gapTop - gapBottom
            let offset =
                span > 0
                ? ScanConverter.divideRounded(gapTop * height, span)
                : ScanConverter.divideRounded(-gapTop * height, -span)
            return top + Int32(min(max(offset, 1), height - 1))
        }
        return nil
    }

    /// Orders pieces by the x of their middle: insertion sort for the usual handful.
    private static func sortByMiddle(_ pieces: inout [Piece]) {
        if pieces.count > 24 {
            pieces.sort { $0.xTop + $0.xBottom < $1.xTop + $1.xBottom }
            return
        }
        var index = 1
        while index < pieces.count {
            let piece = pieces[index]
            let key = piece.xTop + piece.xBottom
            var slot = index - 1
            while slot >= 0 && pieces[slot].xTop + pieces[slot].xBottom > key {
                pieces[slot + 1] = pieces[slot]
                slot -= 1
            }
            pieces[slot + 1] = piece
            index += 1
        }
    }

    /// Counting sort of the portions by first column (into `byRow`), then by row, stable (back
    /// into `portions`, which `byRow` then names): each row's portions come out ordered by
    /// first column, and `rowStarts[r]` is row r's first.
    private mutating func bucketByRow() {
        sortByFirstColumn()
        if rowStarts.count < rowCount + 1 {
            rowStarts = [Int32](repeating: 0, count: rowCount + 1)
            rowCursors = rowStarts
        }
        for index in 0...rowCount { rowStarts[index] = 0 }
        let first = firstRow
        let count = rowCount
        // Portions in rows without cells (edges on the right border) are never asked for.
        for portion in portions where Int(portion.row) - first >= 0 && Int(portion.row) - first < count {
            rowStarts[Int(portion.row) - first + 1] += 1
        }
        for index in 0..<rowCount { rowStarts[index + 1] += rowStarts[index] }
        if byRow.count < portions.count {
            byRow = [Portion](repeating: Portion(row: 0, xTop: 0, top: 0, xBottom: 0, bottom: 0, sign: 0), count: portions.count)
        }
        for index in 0..<rowCount { rowCursors[index] = rowStarts[index] }
        for portion in portions where Int(portion.row) - first >= 0 && Int(portion.row) - first < count {
            let slot = Int(portion.row) - first
            byRow[Int(rowCursors[slot])] = portion
            rowCursors[slot] += 1
        }
        isBucketed = true
    }

    /// Counting sort of `portions` by first column, in place (through `byRow` as scratch).
    private mutating func sortByFirstColumn() {
        if columnStarts.count < width + 2 { columnStarts = [Int32](repeating: 0, count: width + 2) }
        for index in 0..<(width + 2) { columnStarts[index] = 0 }
        let last = width
        for portion in portions { columnStarts[min(portion.firstColumn, last) + 1] += 1 }
        for index in 0...last { columnStarts[index + 1] += columnStarts[index] }
        if byRow.count < portions.count {
            byRow = [Portion](repeating: Portion(row: 0, xTop: 0, top: 0, xBottom: 0, bottom: 0, sign: 0), count: portions.count)
        }
        for portion in portions {
            let slot = min(portion.firstColumn, last)
            byRow[Int(columnStarts[slot])] = portion
            columnStarts[slot] += 1
        }
        let count = portions.count
        swap(&portions, &byRow)
        portions.removeLast(portions.count - count)
    }
}

/// One cluster's cells, dense from column `first`. Portions never reach left of their cluster
/// (it holds every column they pass); the right border's column is not drawn.
private struct DenseCells: CellSink {
    let first: Int
    let count: Int
    let cover: UnsafeMutablePointer<Int>
    let area: UnsafeMutablePointer<Int>

    @inline(__always)
    mutating func addCell(_ x: Int, _ y: Int, _ cover: Int, _ area: Int) {
        let index = x - first
        if index >= 0 && index < count {
            self.cover[index] += cover
            self.area[index] += area
        }
    }
}
