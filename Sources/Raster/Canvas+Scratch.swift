// Drawing buffers handed from canvas to canvas. A canvas grows its scan converter's cells and
// its contour buffer as it draws and keeps them for its next drawing; a server drawing every
// picture on a fresh canvas would grow (and fault in) megabytes of them again per picture.
// A caller that draws many pictures keeps a CanvasScratch and exchanges it in for the heavy part.

/// The drawing buffers of a canvas (no pixels), to reuse on another canvas.
package struct CanvasScratch: Sendable {
    var converter = ScanConverter()
    var contours = Contours()

    /// Empty buffers.
    package init() {}
}

extension Canvas {
    /// Swaps this canvas's drawing buffers with `scratch`. Drawing is the same with any
    /// buffers; only their memory is reused.
    package mutating func exchangeScratch(_ scratch: inout CanvasScratch) {
        swap(&converter, &scratch.converter)
        swap(&contours, &scratch.contours)
    }
}
