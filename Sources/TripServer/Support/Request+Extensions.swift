import Foundation
import HTTPTypes
import Hummingbird
import TripModel

extension ResourceExtensions {
    /// ``requestHeader`` as a header field name.
    package static let headerField = HTTPField.Name(requestHeader)!
}

extension Request {
    /// The extensions of Fleet Engine's resources the caller names in `Tripshare-Extensions`
    /// (none when absent: answers are then pure Fleet Engine, which Google's own types parse
    /// strictly); INVALID_ARGUMENT naming one that is not an extension.
    func resourceExtensions() throws(APIError) -> ResourceExtensions {
        let names = headers[values: ResourceExtensions.headerField]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let extensions = ResourceExtensions(naming: names) else {
            let unknown = names.first { !ResourceExtensions.names.contains($0) } ?? ""
            throw .invalid(
                "\(ResourceExtensions.requestHeader): '\(unknown.prefix(64))' is not an extension; "
                    + "known: \(ResourceExtensions.names.sorted().joined(separator: ", "))")
        }
        return extensions
    }
}
