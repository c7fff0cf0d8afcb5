// Style values as the HTTP API returns them: complete, with traffic colours as in effect
// (the stroke colour for every speed while traffic is off), in the same shape style files
// and request bodies use, so a response can be sent back as a request.

import Foundation
import JSON
import Raster
import TripModel

/// JSON encodings of styles in effect.
package enum StyleJSON {
    /// A complete style sheet.
    package static func encode(_ sheet: StyleSheet) -> [UInt8] {
        encodeValue(StyleSheetPatch(sheet, effective: true))
    }

    /// A marker type's options.
    package static func encode(_ options: MarkerStyleOptions) -> [UInt8] {
        encodeValue(MarkerStylePatch(options))
    }

    /// A polyline type's options.
    package static func encode(_ options: PolylineStyleOptions) -> [UInt8] {
        encodeValue(PolylineStylePatch(options, effective: true))
    }

    /// A colour as a JSON string.
    package static func encode(_ color: Color) -> [UInt8] {
        encodeValue(color)
    }

    /// Compact, sorted-key JSON; these values always encode.
    static func encodeValue(_ value: some Encodable) -> [UInt8] {
        (try? Array(JSONCoding.encode(value))) ?? Array("null".utf8)
    }
}
