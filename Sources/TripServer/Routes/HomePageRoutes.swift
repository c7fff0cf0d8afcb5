// The server's root URL: a small page that says what this is and links the API description,
// the health endpoints and the documentation, instead of a 404. The documentation is the
// repository's `docs/` folder (Markdown, served as text) when the server was given it; no
// token is needed for any of it.

import Foundation
import Hummingbird

/// `GET /`, its style sheet, and `GET /docs/{file}.md`.
struct HomePageRoutes {
    /// The folder of the Markdown documentation, nil when the server has none.
    let docsDirectory: String?

    private static let assets = HomeAssets()

    func register(on router: some RouterMethods<TripRequestContext>) {
        router.get("/") { _, _ in
            PageResponse.html(.ok, Self.assets.page(docs: docsList()))
        }
        router.get("/home/assets/home.css") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "public, max-age=300"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.assets.styleSheet)))
        }
        router.get("/docs/:file") { _, context in
            let file = context.parameters.get("file") ?? ""
            guard let text = document(file) else { throw APIError.notFound("no document '\(file.prefix(64))'") }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "public, max-age=300"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
        }
    }

    /// The documents served: `NAME.md` files of the folder, the index (README.md) first.
    func documents() -> [(file: String, title: String)] {
        guard let docsDirectory, let names = try? FileManager.default.contentsOfDirectory(atPath: docsDirectory) else { return [] }
        let files = names.filter(Self.isDocumentName).sorted { ($0 == "README.md" ? 0 : 1, $0) < ($1 == "README.md" ? 0 : 1, $1) }
        return files.map { file in
            let text = String(decoding: document(file) ?? [], as: UTF8.self)
            let heading = text.split(separator: "\n").first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) }
            return (file, heading ?? file)
        }
    }

    /// A document's bytes; nil for a name that is not a document of the folder.
    private func document(_ file: String) -> [UInt8]? {
        guard let docsDirectory, Self.isDocumentName(file) else { return nil }
        return FileManager.default.contents(atPath: (docsDirectory as NSString).appendingPathComponent(file)).map(Array.init)
    }

    /// Letters, digits, `-` and `_`, then `.md`: nothing that could leave the folder.
    static func isDocumentName(_ name: String) -> Bool {
        guard name.hasSuffix(".md"), name.count > 3, name.count <= 64 else { return false }
        return name.dropLast(3).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// The documentation's list as HTML.
    private func docsList() -> String {
        let documents = documents()
        guard !documents.isEmpty else {
            return "<p>The documentation is in the <code>docs/</code> folder of tripshare's repository.</p>"
        }
        let items = documents.map { "<li><a href=\"/docs/\($0.file)\">\(PageResponse.escape($0.title))</a></li>" }
        return "<ul>\n" + items.joined(separator: "\n") + "\n</ul>"
    }
}

/// The home page's template and style sheet, read once from the module's resources.
private struct HomeAssets: Sendable {
    let template: String
    let styleSheet: [UInt8]

    init() {
        func read(_ path: String) -> [UInt8] {
            guard let url = Bundle.module.url(forResource: path, withExtension: nil), let data = try? Data(contentsOf: url) else {
                return Array("/* \(path) is missing from the resources */".utf8)
            }
            return Array(data)
        }
        template = String(decoding: read("home/index.html"), as: UTF8.self)
        styleSheet = read("home/home.css")
    }

    func page(docs: String) -> String {
        template.replacingOccurrences(of: "{{version}}", with: PageResponse.escape(TripshareVersion.current))
            .replacingOccurrences(of: "{{docs}}", with: docs)
    }
}
