import Foundation

/// Opaque page tokens: the last ID of a page, base64url so clients treat it as opaque.
package enum PageToken {
    /// The token of a page that ends with `id`.
    package static func encode(_ id: String) -> String {
        Data(("v1:" + id).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The ID a token names; nil for a token this server did not issue.
    package static func decode(_ token: String) -> String? {
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard token.count <= 400, let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            text.hasPrefix("v1:")
        else { return nil }
        return String(text.dropFirst(3))
    }
}
