// Geometry of one feature: the command stream of MVT 2.x §4.3 (MoveTo, LineTo, ClosePath with
// zig-zag deltas from a cursor that starts at 0,0) decoded into points, line strings or
// polygons. Contract: every rule of the specification about commands is checked (command
// ids and counts, parameters present, LineTo deltas not both zero, what each geometry type
// may contain) and a violation throws; counts are checked against the parameters left
// before anything is read, so a huge count neither allocates nor loops. Polygon rings are
// grouped into polygons by winding: an exterior ring (positive surveyor's area in tile
// coordinates, y down) starts a polygon and the rings of opposite winding after it are its
// holes; rings of zero area are dropped. Stored rings are normalised to that convention
// even when a (version 1) tile winds them the other way round, so nonzero and even-odd
// fills agree.

/// A vertex in tile coordinates (0…extent across the tile, y down; buffers lie outside).
public struct TilePoint: Hashable, Sendable {
    /// Horizontal coordinate.
    public var x: Int32
    /// Vertical coordinate, downwards.
    public var y: Int32

    /// A point from its coordinates.
    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

/// A feature's geometry as parts of points: points, line strings, or polygon rings.
public struct FeatureGeometry: Hashable, Sendable {
    /// The geometry type.
    public var type: VectorTile.GeometryType
    /// Every vertex, part after part; rings do not repeat their first point at the end.
    public var points: [TilePoint]
    /// The end index (exclusive) in `points` of each part: a point, a line string, a ring.
    package var partEnds: [Int]
    /// For polygons, the index in `partEnds` of each polygon's exterior ring; the rings after
    /// it, up to the next polygon's, are its holes. Empty for other types.
    package var polygonStarts: [Int]

    /// A geometry from its parts.
    package init(type: VectorTile.GeometryType, points: [TilePoint], partEnds: [Int], polygonStarts: [Int] = []) {
        self.type = type
        self.points = points
        self.partEnds = partEnds
        self.polygonStarts = polygonStarts
    }

    /// Decodes a feature's command stream; throws `corruptTile` naming the broken rule.
    public init(decoding feature: VectorTile.Feature) throws(BasemapError) {
        var sink = CollectingSink()
        do throws(GeometryCommands.Failure) {
            try GeometryCommands.walk(feature.geometry, type: feature.type, into: &sink)
        } catch {
            throw BasemapError(code: .corruptTile, message: "feature\(feature.id.map { " \($0)" } ?? ""): \(error.reason)")
        }
        self = sink.geometry(type: feature.type)
    }

    /// The points of part `index`.
    package func part(_ index: Int) -> ArraySlice<TilePoint> {
        points[(index == 0 ? 0 : partEnds[index - 1])..<partEnds[index]]
    }
}

/// Receives a decoded command stream.
protocol GeometrySink {
    mutating func move(to point: TilePoint)
    mutating func line(to point: TilePoint)
    mutating func closePath()
}

/// Walks and validates MVT geometry command streams.
enum GeometryCommands {
    struct Failure: Error {
        let reason: String
    }

    private static let moveTo: UInt32 = 1
    private static let lineTo: UInt32 = 2
    private static let closePath: UInt32 = 7

    /// Checks a command stream against the rules for its type and reports it to `sink`.
    static func walk<Sink: GeometrySink>(
        _ commands: [UInt32], type: VectorTile.GeometryType,
        into sink: inout Sink
    ) throws(Failure) {
        if type != .unknown && commands.isEmpty { throw Failure(reason: "the geometry is empty") }
        var index = 0
        var x: Int64 = 0
        var y: Int64 = 0
        // Vertices in the current part, and whether a point geometry has had its MoveTo.
        var partLength = 0
        var sawMoveTo = false
        var commandCount = 0
        while index < commands.count {
            let command = commands[index]
            index += 1
            let id = command & 7
            let count = Int(command >> 3)
            commandCount += 1
            switch id {
            case moveTo, lineTo:
                let name = id == moveTo ? "MoveTo" : "LineTo"
                guard count > 0 else { throw Failure(reason: "\(name) with a count of 0") }
                guard (commands.count - index) / 2 >= count else {
                    throw Failure(reason: "\(name) with a count of \(count) but \((commands.count - index) / 2) coordinate pairs left")
                }
                if id == moveTo {
                    switch type {
                    case .point:
                        if sawMoveTo { throw Failure(reason: "a point geometry with more than one MoveTo command") }
                    case .lineString, .polygon:
                        if count != 1 { throw Failure(reason: "MoveTo with a count of \(count) in a \(type) (must be 1)") }
                        if type == .lineString && sawMoveTo && partLength < 2 {
                            throw Failure(reason: "a line string with a MoveTo but no LineTo")
                        }
                        if type == .polygon && partLength != 0 {
                            throw Failure(reason: "a polygon ring that is not closed by ClosePath")
                        }
                    case .unknown:
                        break
                    }
                    sawMoveTo = true
                } else {
                    if type == .point { throw Failure(reason: "LineTo in a point geometry") }
                    if type != .unknown && partLength == 0 { throw Failure(reason: "LineTo before any MoveTo") }
                }
                for _ in 0..<count {
                    let dx = zigzag(commands[index])
                    let dy = zigzag(commands[index + 1])
                    index += 2
                    if id == lineTo && dx == 0 && dy == 0 && type != .unknown {
                        throw Failure(reason: "LineTo with a zero delta (a repeated point)")
                    }
                    x += dx
                    y += dy
                    let point = TilePoint(x: clamp(x), y: clamp(y))
                    if id == moveTo {
                        sink.move(to: point)
                        partLength = 1
                    } else {
                        sink.line(to: point)
                        partLength += 1
                    }
                }
            case closePath:
                guard count == 1 else { throw Failure(reason: "ClosePath with a count of \(count) (must be 1)") }
                switch type {
                case .polygon:
                    guard partLength >= 3 else {
                        throw Failure(
                            reason: partLength == 0
                                ? "ClosePath before any MoveTo"
                                : "a polygon ring closed after \(partLength) points (needs 3 or more)")
                    }
                case .point, .lineString:
                    throw Failure(reason: commandCount == 1 ? "the geometry begins with ClosePath" : "ClosePath in a \(type)")
                case .unknown:
                    break
                }
                sink.closePath()
                partLength = 0
            default:
                throw Failure(reason: "unknown command id \(id)")
            }
        }
        switch type {
        case .lineString where partLength < 2:
            throw Failure(reason: "a line string ends without a LineTo")
        case .polygon where partLength != 0:
            throw Failure(reason: "a polygon ring that is not closed by ClosePath")
        default:
            break
        }
    }

    /// A zig-zag encoded parameter as a signed value.
    @inline(__always)
    static func zigzag(_ value: UInt32) -> Int64 {
        Int64(value >> 1) ^ -Int64(value & 1)
    }

    /// Coordinates far outside any tile (the specification allows the cursor to run past
    /// 32 bits) are clamped; they lie outside every clip square anyway.
    @inline(__always)
    private static func clamp(_ value: Int64) -> Int32 {
        Int32(min(max(value, Int64(Int32.min)), Int64(Int32.max)))
    }
}

extension VectorTile.GeometryType: CustomStringConvertible {
    /// The specification's name: "point", "line string", "polygon", "unknown".
    public var description: String {
        switch self {
        case .unknown: "geometry of unknown type"
        case .point: "point geometry"
        case .lineString: "line string"
        case .polygon: "polygon"
        }
    }
}

/// Validates without keeping anything.
struct DiscardingSink: GeometrySink {
    mutating func move(to point: TilePoint) {}
    mutating func line(to point: TilePoint) {}
    mutating func closePath() {}
}

/// Collects parts and groups polygon rings by winding. Reusable: ``reset()`` keeps its
/// buffers' capacity, so preparing a layer's features allocates per layer, not per feature.
struct CollectingSink: GeometrySink {
    var points: [TilePoint] = []
    var partEnds: [Int] = []
    var partStart = 0

    mutating func move(to point: TilePoint) {
        finishPart()
        points.append(point)
    }

    mutating func line(to point: TilePoint) {
        points.append(point)
    }

    mutating func closePath() {
        finishPart()
    }

    private mutating func finishPart() {
        if points.count > partStart {
            partEnds.append(points.count)
            partStart = points.count
        }
    }

    /// Empties the sink for the next feature.
    mutating func reset() {
        points.removeAll(keepingCapacity: true)
        partEnds.removeAll(keepingCapacity: true)
        partStart = 0
    }

    /// The geometry; for polygons, rings classified and normalised (see the file comment).
    mutating func geometry(type: VectorTile.GeometryType) -> FeatureGeometry {
        var output: [TilePoint] = []
        var ends: [Int] = []
        var starts: [Int] = []
        emit(type: type, into: &output) {
            ends.append($0)
        } polygonStarted: {
            starts.append(ends.count)
        }
        return FeatureGeometry(type: type, points: output, partEnds: ends, polygonStarts: type == .polygon ? starts : [])
    }

    /// Appends the parts to `output`, calling `partEnded` with each part's end (an index into
    /// `output`) and, for polygons, `polygonStarted` before each exterior ring; polygon rings
    /// are classified and normalised (see the file comment), rings of zero area dropped.
    mutating func emit(
        type: VectorTile.GeometryType, into output: inout [TilePoint], partEnded: (Int) -> Void, polygonStarted: () -> Void
    ) {
        finishPart()
        guard type == .polygon else {
            let base = output.count
            output.append(contentsOf: points)
            for end in partEnds { partEnded(base + end) }
            return
        }
        // The winding of the first ring that has an area says which sign exterior rings have
        // (positive per version 2; version 1 tiles may have it the other way round).
        var exteriorSign = 0.0
        var start = 0
        for end in partEnds {
            let ring = points[start..<end]
            start = end
            let area = Self.signedArea(ring)
            guard area != 0 else { continue }
            if exteriorSign == 0 { exteriorSign = area > 0 ? 1 : -1 }
            let isExterior = (area > 0) == (exteriorSign > 0)
            if isExterior { polygonStarted() }
            // Normalise: exterior rings positive, holes negative.
            if (area > 0) == isExterior { output.append(contentsOf: ring) } else { output.append(contentsOf: ring.reversed()) }
            partEnded(output.count)
        }
    }

    /// Twice the surveyor's area (positive for clockwise rings on screen, y down).
    static func signedArea(_ ring: ArraySlice<TilePoint>) -> Double {
        guard var previous = ring.last else { return 0 }
        var sum = 0.0
        for point in ring {
            sum += Double(previous.x) * Double(point.y) - Double(point.x) * Double(previous.y)
            previous = point
        }
        return sum
    }
}
