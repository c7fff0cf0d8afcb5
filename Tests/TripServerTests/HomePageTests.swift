import Foundation
import Hummingbird
import Testing
import TripServer
import TripServerTesting

/// The root URL: a page with links instead of a 404, and the documentation it links.
@Suite struct HomePageTests {
    /// A server whose documentation folder holds an index and one page.
    private func withDocs(_ body: @Sendable (Client) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("# tripshare's documentation\n\nThe index.\n".utf8).write(to: folder.appendingPathComponent("README.md"))
        try Data("# Operations & <backups>\n\nRunning it.\n".utf8).write(to: folder.appendingPathComponent("operations.md"))
        try Data("not a page".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let harness = try await Harness()
        var app = harness.app
        app.docsDirectory = folder.path
        try await body(Client(app: app, authority: harness.authority))
    }

    /// `/` is an HTML page linking the API description, the health checks and every page of
    /// the documentation by its title (escaped), and those links work.
    @Test func rootPageLinksTheDocsTheAPIAndHealth() async throws {
        try await withDocs { client in
            let page = try await client.expect(.ok, .get, "/")
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            for link in ["/openapi.json", "/healthz", "/readyz", "/docs/README.md", "/docs/operations.md"] {
                #expect(page.text.contains("href=\"\(link)\""), "no link to \(link)")
            }
            #expect(page.text.contains("Operations &amp; &lt;backups&gt;"), "the page's title, escaped")
            #expect(!page.text.contains("notes.txt"), "only Markdown pages are listed")
            #expect(!page.text.contains("{{"), "every placeholder is filled")
            let css = try await client.expect(.ok, .get, "/home/assets/home.css")
            #expect(css.headers[.contentType]?.hasPrefix("text/css") == true && !css.body.isEmpty)
            let index = try await client.expect(.ok, .get, "/docs/README.md")
            #expect(index.text.hasPrefix("# tripshare's documentation"))
        }
    }

    /// Only Markdown files of the folder are served: nothing else, nothing outside it.
    @Test func docsServeOnlyTheFoldersPages() async throws {
        try await withDocs { client in
            for path in ["/docs/notes.txt", "/docs/missing.md", "/docs/..%2FPackage.swift", "/docs/.md"] {
                try await client.expect(.notFound, .get, path)
            }
        }
    }

    /// Without a documentation folder the page still answers and says where the docs are.
    @Test func withoutDocsThePageSaysWhereTheyAre() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            let page = try await client.expect(.ok, .get, "/")
            #expect(page.text.contains("<code>docs/</code> folder"))
            #expect(page.text.contains("href=\"/openapi.json\""))
            try await client.expect(.notFound, .get, "/docs/README.md")
        }
    }
}
