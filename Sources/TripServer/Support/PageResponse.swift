import Hummingbird

/// The answers of the browser pages' routes (the share page, the driver's page): their HTML
/// under one content security policy, a short page that says why a link cannot open, and
/// their static assets.
enum PageResponse {
    /// Pages and assets may use only what this server serves (no CDN), plus images made by the script.
    static let securityPolicy =
        "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"

    /// An HTML page, never cached (it carries what the token may see now).
    static func html(_ status: HTTPResponse.Status, _ html: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentSecurityPolicy: securityPolicy],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// A page with a title and one sentence: why the link does not open, and what to do.
    static func message(_ status: HTTPResponse.Status, _ title: String, _ detail: String) -> Response {
        html(
            status,
            """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title)) · tripshare</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/share/assets/share.css"></head>
            <body><main class="panel"><h1>\(escape(title))</h1><p>\(escape(detail))</p></main></body></html>
            """)
    }

    /// The page's asset `file`, cached for five minutes; 404 naming `page` for a file it does not have.
    static func asset(_ file: String, of assets: PageAssets, page: String) throws -> Response {
        guard let (bytes, type) = assets.file(file) else { throw APIError.notFound("no \(page) asset '\(file.prefix(64))'") }
        return Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Escapes text for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
