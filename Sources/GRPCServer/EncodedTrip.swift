import FleetEngineProtos
import SwiftProtobuf
import TripStore

/// A trip view as its protobuf encoding, for ``EncodedViewCache``: answering a rider's poll
/// with it writes the cached bytes as they are instead of encoding the view again.
struct EncodedTrip: EncodedView {
    /// A `Trip` that holds nothing but the view's encoding, as unknown fields. Protobuf writes
    /// unknown fields back byte for byte, so the message serialises to exactly that encoding
    /// (without a field-by-field walk of the view) and a client decodes the whole view.
    let message: Maps_Fleetengine_V1_Trip
    let encodedByteCount: Int

    /// The encoding of `trip`.
    init(_ trip: Maps_Fleetengine_V1_Trip) throws {
        let bytes: [UInt8] = try trip.serializedBytes()
        // A message without fields keeps every field it reads as unknown, bytes unchanged.
        var carrier = Maps_Fleetengine_V1_Trip()
        carrier.unknownFields = try Google_Protobuf_Empty(serializedBytes: bytes).unknownFields
        message = carrier
        encodedByteCount = bytes.count
    }
}
