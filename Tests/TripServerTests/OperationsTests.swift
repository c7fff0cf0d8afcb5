import Foundation
import Hummingbird
import StoreVariants
import Testing
import TripModel
import TripServer
import TripServerTesting

@Suite struct OperationsTests {
    /// Health and readiness answer without a token.
    @Test(arguments: TestStoreKind.available) func health(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            let health = try await client.expect(.ok, .get, "/healthz")
            // A fresh store proves itself with a write first; on a busy machine that may take
            // longer than /readyz waits (0.8 s), and the next probe then has the answer.
            var ready = try await client.send(.get, "/readyz")
            for _ in 0..<10 where ready.status != .ok {
                try await Task.sleep(for: .milliseconds(300))
                ready = try await client.send(.get, "/readyz")
            }
            #expect(ready.status == .ok, "\(ready.text)")
            #expect(health.text == "ok\n" && ready.text == "ready\n")
        }
    }

    /// /metrics counts requests per route pattern and status, with latency histograms.
    @Test(arguments: TestStoreKind.available) func metrics(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: harness.server)
            try await client.expect(.notFound, .get, "/v1/providers/p/trips/zz", as: harness.server)
            let text = try await client.expect(.ok, .get, "/metrics").text
            #expect(
                text.contains(#"tripshare_http_requests_total{method="GET",route="/v1/providers/{provider}/trips/{tripId}",status="200"} 1"#),
                "\(text)")
            #expect(text.contains(#"status="404"} 1"#))
            #expect(text.contains("tripshare_http_request_duration_seconds_bucket"))
            // The SQLite store's WAL bound says what it did (nothing yet, on a few writes).
            let walLines = [
                "# TYPE tripshare_sqlite_wal_restarts_total counter", "tripshare_sqlite_wal_restarts_total 0\n",
                "tripshare_sqlite_wal_waits_run_out_total 0\n", "tripshare_sqlite_wal_writer_held_seconds_total 0\n",
            ]
            #expect(walLines.allSatisfy(text.contains) == (store == .sqlite), "\(text)")
        }
    }

    /// /metrics says what the cache pool holds and how each cache's lookups fared: a rider's
    /// first read of a trip misses its view, the second finds it, and a write that moves the
    /// trip's revision makes the next read miss again (counted once, though the read looks
    /// before and after reading the trip).
    @Test(arguments: TestStoreKind.available) func metricsShowTheCaches(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        try await harness.test { client in
            try await harness.seed(client)
            let rider = harness.consumer("t1")
            @Sendable func viewFigures() async throws -> [String] {
                let text = try await client.expect(.ok, .get, "/metrics").text
                return text.split(separator: "\n").map(String.init).filter { $0.contains(#"{cache="rest_trip_views"}"#) }
            }
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: rider)
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: rider)
            var figures = try await viewFigures()
            #expect(figures.contains(#"tripshare_cache_entries{cache="rest_trip_views"} 1"#), "\(figures)")
            #expect(figures.contains(#"tripshare_cache_hits_total{cache="rest_trip_views"} 1"#), "\(figures)")
            #expect(figures.contains(#"tripshare_cache_misses_total{cache="rest_trip_views"} 1"#), "\(figures)")
            #expect(figures.contains(#"tripshare_cache_evictions_total{cache="rest_trip_views"} 0"#), "\(figures)")
            try await client.expect(
                .ok, .put, "/v1/providers/p/trips/t1?updateMask=numberOfPassengers", as: harness.server,
                body: #"{"numberOfPassengers": 3}"#)
            try await client.expect(.ok, .get, "/v1/providers/p/trips/t1", as: rider)
            figures = try await viewFigures()
            #expect(figures.contains(#"tripshare_cache_misses_total{cache="rest_trip_views"} 2"#), "\(figures)")
            let text = try await client.expect(.ok, .get, "/metrics").text
            #expect(text.contains("# TYPE tripshare_cache_pool_limit_bytes gauge\ntripshare_cache_pool_limit_bytes "))
            #expect(text.contains("# TYPE tripshare_cache_hits_total counter"))
        }
    }

    /// The OpenAPI document is OpenAPI 3.1 and lists exactly the routes the router has; every
    /// /v1 operation says it may answer 503 UNAVAILABLE (the store's storage failing, or its
    /// database unreachable).
    @Test(arguments: TestStoreKind.available) func openAPIMatchesRoutes(_ store: TestStoreKind) async throws {
        let harness = try await Harness(store)
        // Parameters compared by position: the router names the parts of /tiles/{z}/{x}/{y}.mvt
        // as those of /tiles/{style}/{z}/{x}/{y}.png (it takes one name per position).
        @Sendable func shape(_ path: String) -> String { path.replacing(#/\{[^}/]*\}/#, with: "{}") }
        let routes = Set(harness.app.makeRouter().routes.map { "\($0.method.rawValue.lowercased()) \(shape($0.path.description))" })
        try await harness.test { client in
            let document = try await client.expect(.ok, .get, "/openapi.json").json()
            #expect(document["openapi"] == .string("3.1.0"))
            #expect(document["info"]?["version"] == .string(TripshareVersion.current), "`tripshare --version` says the same")
            guard case .object(let paths)? = document["paths"] else {
                Issue.record("no paths")
                return
            }
            var documented = Set<String>()
            for (path, item) in paths {
                guard case .object(let operations) = item else { continue }
                for (method, operation) in operations where ["get", "put", "post", "patch", "delete"].contains(method) {
                    documented.insert("\(method) \(shape(path))")
                    if path.hasPrefix("/v1/") {
                        let unavailable = operation["responses"]?["503"]?["$ref"]
                        #expect(unavailable == .string("#/components/responses/Unavailable"), "\(method) \(path) documents no 503")
                    }
                }
            }
            #expect(
                documented == routes, "undocumented: \(routes.subtracting(documented).sorted()); stale: \(documented.subtracting(routes).sorted())")
        }
    }
}
