import Foundation
import Hummingbird
import Testing
import TripModel
import TripServerTesting

@testable import TripServer

@Suite struct DriverPageTests {
    /// A driver's token opens the page of its vehicle: the provider, the vehicle and its label
    /// are filled in (escaped), and the page loads only this server's script and style.
    @Test func pageForDriver() async throws {
        let harness = try await Harness()
        let driver = try await harness.token(harness.driver("v1"))
        try await harness.test { client in
            try await harness.seed(client)
            try await client.expect(
                .ok, .put, "/v1/providers/p/vehicles/v1?updateMask=attributes", as: harness.server,
                body: """
                    {"attributes": [{"key": "vehicleLabel", "value": "Blue <Prius>"}]}
                    """)
            let reply = try await client.send(.get, "/drive/\(driver)")
            #expect(reply.status == .ok)
            #expect(reply.headers[.contentType] == "text/html; charset=utf-8")
            #expect(reply.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            #expect(reply.headers[.cacheControl] == "no-store")
            #expect(reply.text.contains(#"data-provider="p" data-vehicle="v1""#))
            #expect(reply.text.contains("Navigation · Blue &lt;Prius&gt;"))
            #expect(reply.text.contains(#"<script src="/drive/assets/drive.js"></script>"#))
            #expect(!reply.text.contains("http://") && !reply.text.contains("https://"))
        }
    }

    /// Bad links get a readable page with the right status: an invalid token 401, a token
    /// that is not a driver's 403, a vehicle that does not exist 404; a vehicle ID that two
    /// providers use opens the vehicle of the token's provider.
    @Test func badLinks() async throws {
        let harness = try await Harness()
        let rider = try await harness.token(harness.consumer("t1"))
        let stranger = try await harness.token(harness.driver("nope"))
        let driver = try await harness.token(harness.driver("v1"))
        try await harness.test { client in
            try await harness.seed(client)
            let invalid = try await client.send(.get, "/drive/not-a-token")
            #expect(invalid.status == .unauthorized)
            #expect(invalid.text.contains("This driver link has expired or is not valid"))
            let notDriver = try await client.send(.get, "/drive/\(rider)")
            #expect(notDriver.status == .forbidden)
            #expect(notDriver.text.contains("This is not a driver&#39;s link"))
            let missing = try await client.send(.get, "/drive/\(stranger)")
            #expect(missing.status == .notFound)
            #expect(missing.text.contains("This vehicle cannot be found"))
            try await client.expect(.ok, .post, "/v1/providers/q/vehicles?vehicleId=v1", as: harness.admin, body: Bodies.vehicle)
            let own = try await client.send(.get, "/drive/\(driver)")
            #expect(own.status == .ok)
            #expect(own.text.contains(#"data-provider="p""#))
            let other = try await client.send(.get, "/drive/\(try await harness.token(harness.driver("v1", provider: "q")))")
            #expect(other.status == .ok)
            #expect(other.text.contains(#"data-provider="q""#))
        }
    }

    /// The page's script and style sheet are served with their types; nothing else is.
    @Test func assets() async throws {
        let harness = try await Harness()
        try await harness.test { client in
            let script = try await client.send(.get, "/drive/assets/drive.js")
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("Last-Event-ID") && script.text.contains("navigation.png"))
            let style = try await client.send(.get, "/drive/assets/drive.css")
            #expect(style.headers[.contentType] == "text/css; charset=utf-8")
            #expect(try await client.send(.get, "/drive/assets/share.js").status == .notFound)
        }
    }
}
