import Foundation

/// A browser page's files (its HTML, script and style sheet), read once from the module's
/// resources: the page is a template the route fills in, the others are served as they are.
struct PageAssets: Sendable {
    /// The page's HTML template.
    let page: String
    let files: [String: (bytes: [UInt8], type: String)]

    /// The rider's share page (`share/`).
    static let share = PageAssets(folder: "share", script: "share.js", styleSheet: "share.css")
    /// The driver's page (`drive/`).
    static let driver = PageAssets(folder: "drive", script: "drive.js", styleSheet: "drive.css")

    /// The files of `folder`: `index.html`, the script and the style sheet, and the scripts
    /// both pages share (`pages/`: the event stream reader, units and clock).
    init(folder: String, script: String, styleSheet: String) {
        func read(_ path: String) -> [UInt8] {
            guard let url = Bundle.module.url(forResource: path, withExtension: nil),
                let data = try? Data(contentsOf: url)
            else { return Array("/* \(path) is missing from the resources */".utf8) }
            return Array(data)
        }
        page = String(decoding: read("\(folder)/index.html"), as: UTF8.self)
        files = [
            script: (read("\(folder)/\(script)"), "text/javascript; charset=utf-8"),
            styleSheet: (read("\(folder)/\(styleSheet)"), "text/css; charset=utf-8"),
            "eventstream.js": (read("pages/eventstream.js"), "text/javascript; charset=utf-8"),
            "units.js": (read("pages/units.js"), "text/javascript; charset=utf-8"),
        ]
    }

    /// The page with each `{{name}}` of `values` replaced by its value, HTML-escaped: the one
    /// way both pages are filled in.
    func page(filling values: KeyValuePairs<String, String>) -> String {
        values.reduce(page) { html, value in html.replacingOccurrences(of: "{{\(value.key)}}", with: PageResponse.escape(value.value)) }
    }

    /// A file by name, with its content type; nil for a name the page does not have.
    func file(_ name: String) -> ([UInt8], String)? {
        files[name].map { ($0.bytes, $0.type) }
    }
}
