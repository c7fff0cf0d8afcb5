import Foundation
import Hummingbird

/// `GET /assets/leaflet/{file}` and `/assets/leaflet/images/{file}`: the Leaflet map library
/// the share page is built on (DESIGN §15), served from where Debian's `libjs-leaflet` puts
/// it (`scripts/setup-debian` installs it), so nothing of it is copied into the repository.
/// Only its script, style sheet and images are served; a client that takes gzip gets Debian's
/// gzip'd copy. Without the package the files answer 404 and the page says the map cannot be
/// shown.
struct LeafletRoutes {
    /// Where Debian installs the library.
    static let defaultDirectory = "/usr/share/javascript/leaflet"

    let files: [String: File]

    /// One file of the library, and its gzip'd copy when Debian ships one.
    struct File: Sendable {
        let bytes: [UInt8]
        let gzip: [UInt8]?
        let type: String
    }

    /// The library's files read once from `directory`.
    init(directory: String = LeafletRoutes.defaultDirectory) {
        var files: [String: File] = [:]
        let images = ((try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/images")) ?? [])
            .filter { $0.hasSuffix(".png") }.map { ("images/\($0)", "images/\($0)") }
        // (name served, file read): the minified script under the plain name.
        let sources = [("leaflet.js", "leaflet.min.js"), ("leaflet.css", "leaflet.css")] + images
        for (name, file) in sources {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(file)") else { continue }
            let gzip = FileManager.default.contents(atPath: "\(directory)/\(file).gz").map { [UInt8]($0) }
            files[name] = File(bytes: [UInt8](data), gzip: gzip, type: Self.contentType(of: name))
        }
        self.files = files
    }

    /// True when the library is there to serve.
    var isInstalled: Bool { files["leaflet.js"] != nil && files["leaflet.css"] != nil }

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/assets/leaflet/{file}") { request, context in
            try answer(try context.pathParameter("file"), request)
        }
        router.get("/assets/leaflet/images/{file}") { request, context in
            try answer("images/" + (try context.pathParameter("file")), request)
        }
    }

    private func answer(_ name: String, _ request: Request) throws -> Response {
        guard let file = files[name] else {
            throw APIError.notFound(
                isInstalled
                    ? "Leaflet has no file '\(name.prefix(64))'"
                    : "the Leaflet map library is not installed on this server (Debian's libjs-leaflet: scripts/setup-debian)")
        }
        var headers: HTTPFields = [.contentType: file.type, .cacheControl: "public, max-age=86400", .vary: "Accept-Encoding"]
        var bytes = file.bytes
        if let gzip = file.gzip, request.headers[.acceptEncoding]?.contains("gzip") == true {
            bytes = gzip
            headers[.contentEncoding] = "gzip"
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func contentType(of name: String) -> String {
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return "image/png"
    }
}
