// Replays one scenario through the real server stack — the HTTP routes, auth, a fresh store
// (SQLite in a temporary file unless told otherwise) and the navigator — with the clock set to each call's time, and
// collects what the checkpoints record. Comparison with the goldens is separate
// (GoldenComparison), so a run can also write them.

import Access
import Foundation
import JSON
import Logging
import TripModel
import TripServer
import TripStore

/// Runs a scenario and records its checkpoints.
public struct ScenarioRunner: Sendable {
    /// What one call did, for observers (the importer's round-trip check reads these).
    public struct CallResult: Sendable {
        /// Position in the timeline.
        package var index: Int
        /// The call.
        package var call: Scenario.Call
        /// The HTTP status answered.
        package var status: Int
        /// The response body.
        package var body: [UInt8]
    }

    /// The scenario.
    package let scenario: Scenario
    /// The scenario's folder (style files and goldens are relative to it).
    package let directory: URL
    /// The store it replays into.
    package let store: FixtureStore

    /// A runner for `scenario`, read from `directory`, replaying into a fresh `store`.
    public init(scenario: Scenario, directory: URL, store: FixtureStore = .sqlite) {
        self.scenario = scenario
        self.directory = directory
        self.store = store
    }

    /// Replays the timeline on a fresh store and records every checkpoint. `observe` sees
    /// every call's answer.
    public func run(observe: (@Sendable (CallResult) -> Void)? = nil) async throws -> ScenarioRun {
        let started = ContinuousClock.now
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tripshare-fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let store = try await self.store.open(work)
        do {
            var run = try await replay(into: store, observe: observe)
            await self.store.discard(store)
            run.seconds = (ContinuousClock.now - started).seconds
            return run
        } catch {
            await self.store.discard(store)
            throw error
        }
    }

    private func replay(into store: any TripStore, observe: (@Sendable (CallResult) -> Void)?) async throws -> ScenarioRun {
        let clock = ScriptedClock(start: scenario.timeline.first?.at ?? scenario.checkpoints.first?.at ?? Timestamp(microseconds: 0))
        var logger = Logger(label: "tripshare-fixtures")
        logger.logLevel = .critical
        // A private server: tokens signed with a secret nobody else holds, neither tokens nor
        // pictures rate-limited (a replay calls as fast as it can).
        let authority = try await TokenAuthority(hmacSecret: Array(SigningKeys.randomSecret().utf8), clock: clock.wallClock)
        let app = TripServerApp(
            store: store, authority: authority, clock: clock.wallClock, rateLimiter: TokenRateLimiter(policy: .unlimited),
            limits: RequestLimits(pixelsPerSecond: nil))
        var session = RunSession(
            scenario: scenario, directory: directory, clock: clock, store: store,
            transport: LocalTransport(app: app, logger: logger), tokens: TokenCache(authority: authority, clock: clock))

        var callIndex = 0
        for checkpoint in scenario.checkpoints {
            while callIndex < scenario.timeline.count, scenario.timeline[callIndex].at <= checkpoint.at {
                try await session.send(callIndex, observe: observe)
                callIndex += 1
            }
            try await session.record(checkpoint)
        }
        while callIndex < scenario.timeline.count {
            try await session.send(callIndex, observe: observe)
            callIndex += 1
        }
        return session.run
    }
}

/// What a run produced.
public struct ScenarioRun: Sendable {
    /// The recorded results, in checkpoint order.
    public var artefacts: [Artefact]
    /// Calls whose status was not the expected one, and checkpoints that could not record.
    package var failures: [String]
    /// Calls sent.
    package var calls: Int
    /// Previews rendered.
    package var renders: Int
    /// Wall-clock time of the run.
    package var seconds: Double
}

/// One recorded result: a golden file's would-be content.
public struct Artefact: Sendable {
    /// The golden's file name inside `expected/`.
    package var fileName: String
    /// The content.
    package var content: Content

    /// What an artefact holds.
    package enum Content: Sendable {
        /// A JSON document (compared with numeric tolerances).
        case json(JSONValue)
        /// A PNG image (compared with pixel metrics).
        case png([UInt8])
    }

    /// The bytes of its golden file (JSON pretty-printed with sorted keys).
    package func fileBytes() throws -> [UInt8] {
        switch content {
        case .json(let value):
            var bytes = [UInt8](try JSONCoding.encodePretty(value))
            bytes.append(0x0A)
            return bytes
        case .png(let bytes): return bytes
        }
    }
}

/// Mints tokens on the scripted clock, renewing them before they expire in scenario time.
struct TokenCache {
    let authority: TokenAuthority
    let clock: ScriptedClock
    private var tokens: [Principal: (token: String, minted: Timestamp)] = [:]

    /// Tokens are renewed after half their life.
    static let renewAfterSeconds = TokenAuthority.maximumLifetime / 2

    init(authority: TokenAuthority, clock: ScriptedClock) {
        self.authority = authority
        self.clock = clock
    }

    /// A valid token for `principal` at the clock's time.
    mutating func token(_ principal: Principal) async throws -> String {
        let now = clock.now
        if let cached = tokens[principal], abs(now.seconds(since: cached.minted)) < Self.renewAfterSeconds { return cached.token }
        let token = try await authority.mint(principal)
        tokens[principal] = (token, now)
        return token
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
