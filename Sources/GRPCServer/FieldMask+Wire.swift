import SwiftProtobuf
import TripModel

/// An update's `update_mask` as REST's `updateMask` parameter: the same parser reads both,
/// taking the .proto files' snake_case names (`last_location`) as their lowerCamelCase
/// (`lastLocation`).
extension FieldMask {
    /// The fields `mask` names.
    init(wire mask: Google_Protobuf_FieldMask) {
        self.init(mask.paths.joined(separator: ","))
    }
}
