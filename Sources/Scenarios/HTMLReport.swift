// The batch runner's report as one self-contained HTML file (images inline as data URIs, so
// it can be attached to a CI run or mailed): a summary table, then per fixture its failed
// calls, the failed fields of each JSON golden, and expected / actual / diff side by side for
// each image that differs.

import Foundation

/// Writes the HTML report of a batch run.
package enum HTMLReport {
    /// The report of `results` as HTML text; `title` heads it.
    package static func html(_ results: [FixtureResult], title: String = "tripshare fixtures") -> String {
        let failed = results.filter { !$0.passed }.count
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>
            body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1a1a1a; }
            table { border-collapse: collapse; margin-bottom: 24px; }
            th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; }
            .pass { color: #0a6b2d; } .fail { color: #b00020; font-weight: bold; }
            .images { display: flex; gap: 12px; flex-wrap: wrap; }
            figure { margin: 0; } figcaption { font-size: 12px; color: #444; }
            img { max-width: 420px; border: 1px solid #999; image-rendering: pixelated; }
            code, pre { font: 12px/1.4 ui-monospace, monospace; } pre { background: #f4f4f4; padding: 8px; white-space: pre-wrap; }
            </style></head><body>
            <h1>\(escape(title))</h1>
            <p class="\(failed == 0 ? "pass" : "fail")">\(results.count - failed) passed, \(failed) failed</p>
            <table><tr><th>fixture</th><th>result</th><th>calls</th><th>renders</th><th>seconds</th></tr>

            """
        for result in results {
            out += "<tr><td><a href=\"#\(escape(result.name))\">\(escape(result.name))</a></td>"
            out +=
                "<td class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "pass" : "FAIL")\(result.updated.isEmpty ? "" : " (updated \(result.updated.count))")</td>"
            out += String(format: "<td>%d</td><td>%d</td><td>%.2f</td></tr>\n", result.calls, result.renders, result.seconds)
        }
        out += "</table>\n"
        for result in results {
            out += "<section id=\"\(escape(result.name))\"><h2>\(escape(result.name)) "
            out += "<span class=\"\(result.passed ? "pass" : "fail")\">\(result.passed ? "pass" : "FAIL")</span></h2>\n"
            out += "<p><code>\(escape(result.directory.path))</code></p>\n"
            if !result.failures.isEmpty {
                out += "<pre>\(escape(result.failures.joined(separator: "\n")))</pre>\n"
            }
            if !result.updated.isEmpty {
                out += "<p><strong>Goldens rewritten:</strong> \(escape(result.updated.joined(separator: ", ")))</p>\n"
            }
            for artefact in result.artefacts {
                out += "<h3><code>\(escape(artefact.fileName))</code> "
                let verdict = artefact.passed ? "matches" : artefact.expected == nil ? "no golden" : "differs"
                out += "<span class=\"\(artefact.passed ? "pass" : "fail")\">\(verdict)</span></h3>\n"
                if !artefact.differences.isEmpty {
                    out += "<pre>\(escape(artefact.differences.joined(separator: "\n")))</pre>\n"
                }
                if artefact.isImage {
                    out += "<div class=\"images\">"
                    if !artefact.passed, let expected = artefact.expected { out += figure("expected", expected) }
                    out += figure(artefact.passed ? "actual (matches)" : "actual", artefact.actual)
                    if let diff = artefact.diffPNG { out += figure("diff (red: differs)", diff) }
                    out += "</div>\n"
                }
            }
            out += "</section>\n"
        }
        return out + "</body></html>\n"
    }

    /// Writes the report to `url`.
    package static func write(_ results: [FixtureResult], to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(html(results).utf8).write(to: url)
    }

    private static func figure(_ caption: String, _ png: [UInt8]) -> String {
        "<figure><img alt=\"\(escape(caption)) image\" src=\"data:image/png;base64,\(Data(png).base64EncodedString())\">"
            + "<figcaption>\(escape(caption))</figcaption></figure>"
    }

    /// Escapes text for HTML.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
