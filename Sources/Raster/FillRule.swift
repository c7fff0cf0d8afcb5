// How winding numbers become inside/outside when a path is filled.

/// The rule deciding which regions of a self-overlapping path are inside.
package enum FillRule: String, Hashable, Sendable, Codable {
    /// Inside where the winding number is not zero.
    case nonZero
    /// Inside where the winding number is odd.
    case evenOdd
}
