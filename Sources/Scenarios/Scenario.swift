// A fixture scenario (DESIGN §10): resources, a timed list of REST calls and checkpoints.
// The timeline is the API contract itself — each call is the body and update mask a client
// sends — so a scenario can be replayed against any tripshare, and reading one tells what
// the server was asked. The format is documented in Tests/Fixtures/README.md.

import JSON
import TripModel

/// One fixture: what to send to the API, when, and what to look at on the way.
public struct Scenario: Sendable {
    /// The version of the format this value follows.
    public static let currentFormat = 1

    /// Format version (``currentFormat``).
    public var format: Int
    /// Short name (the folder's name, by convention).
    public var name: String
    /// What the scenario shows, for people.
    public var description: String
    /// Where its data comes from, with the attribution the source asks for.
    public var source: String?
    /// What was inferred or changed while making it (importers say what they guessed here).
    public var notes: [String]
    /// The provider every resource lives under.
    public var provider: String
    /// Create bodies of the vehicles, by ID (sent by `createVehicle` calls).
    public var vehicles: [String: JSONValue]
    /// Create bodies of the trips, by ID (sent by `createTrip` calls).
    public var trips: [String: JSONValue]
    /// Routes with steps (`PUT .../vehicles/{id}/route` bodies), by name.
    public var routes: [String: JSONValue]
    /// Style sheets (`PUT /v1/styles/{name}` bodies), by style name.
    public var styles: [String: JSONValue]
    /// The calls, in time order.
    public var timeline: [Call]
    /// What to record, in time order.
    public var checkpoints: [Checkpoint]
    /// How close results must be to the goldens.
    public var tolerances: Tolerances

    /// An empty scenario.
    public init(name: String, description: String, provider: String) {
        format = Self.currentFormat
        self.name = name
        self.description = description
        notes = []
        self.provider = provider
        vehicles = [:]
        trips = [:]
        routes = [:]
        styles = [:]
        timeline = []
        checkpoints = []
        tolerances = Tolerances()
    }

    /// One API call of the timeline.
    public struct Call: Codable, Sendable {
        /// What kind of call.
        public enum Operation: String, Codable, Sendable, CaseIterable {
            case createVehicle, updateVehicle, deleteVehicle, createTrip, updateTrip, deleteTrip, setRoute, deleteRoute, putStyle
        }

        /// When it is sent (the server's clock reads this time while it runs).
        public var at: Timestamp
        /// The kind of call.
        public var op: Operation
        /// The vehicle, trip or style the call is about.
        public var id: String
        /// `updateMask` of an update.
        public var updateMask: String?
        /// The body; a create without one sends the body in `vehicles`/`trips`.
        public var body: JSONValue?
        /// `setRoute`: the name of the route in `routes`.
        public var route: String?
        /// The HTTP status the server must answer (200 when absent).
        public var expectStatus: Int?

        /// A call.
        public init(
            at: Timestamp, op: Operation, id: String, updateMask: String? = nil, body: JSONValue? = nil,
            route: String? = nil, expectStatus: Int? = nil
        ) {
            self.at = at
            self.op = op
            self.id = id
            self.updateMask = updateMask
            self.body = body
            self.route = route
            self.expectStatus = expectStatus
        }
    }

    /// A moment at which results are recorded and compared with `expected/`.
    public struct Checkpoint: Codable, Sendable {
        /// Names the golden files (`expected/NAME.trip.json`, `NAME.png`, ...).
        public var name: String
        /// When (after every call at or before this time).
        public var at: Timestamp
        /// Record this trip as its rider sees it (`JOURNEY_SHARING_V1S`): `NAME.trip.json`.
        public var trip: String?
        /// Record this vehicle as a server reads it: `NAME.vehicle.json`.
        public var vehicle: String?
        /// Record this vehicle's `navInfo`: `NAME.navinfo.json`.
        public var navInfo: String?
        /// Record the events logged since the previous checkpoint: `NAME.events.json`.
        public var events: EventSelection?
        /// Render a trip preview: `NAME.png`.
        public var render: RenderRequest?

        /// A checkpoint recording nothing yet.
        public init(name: String, at: Timestamp) {
            self.name = name
            self.at = at
        }
    }

    /// Which events a checkpoint records.
    public struct EventSelection: Codable, Sendable {
        /// The vehicle whose events (its own and its trips') are recorded.
        public var vehicle: String
        /// Only these event types; every type when absent.
        public var types: [String]?

        /// A selection.
        public init(vehicle: String, types: [String]? = nil) {
            self.vehicle = vehicle
            self.types = types
        }
    }

    /// A trip preview to render, with the options of `preview.png`.
    public struct RenderRequest: Codable, Sendable {
        /// The trip.
        public var trip: String
        /// A bundled style name, or a style of the scenario's `styles`.
        public var style: String?
        /// Query parameters of `preview.png` (`width`, `height`, `scale`, `center`, `zoom`,
        /// `bearing`, `padding`, `lighting`), as text.
        public var options: [String: String]?

        /// A render request.
        public init(trip: String, style: String? = nil, options: [String: String]? = nil) {
            self.trip = trip
            self.style = style
            self.options = options
        }

        /// Encodes the options in key order, so a scenario file is the same on every write (a
        /// dictionary's own order changes from process to process).
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(trip, forKey: .trip)
            try c.encodeIfPresent(style, forKey: .style)
            if let options {
                var nested = c.nestedContainer(keyedBy: AnyCodingKey.self, forKey: .options)
                for (key, value) in options.sorted(by: { $0.key < $1.key }) { try nested.encode(value, forKey: AnyCodingKey(key)) }
            }
        }

        private enum CodingKeys: String, CodingKey {
            case trip, style, options
        }
    }

    /// How close results must be to the goldens.
    public struct Tolerances: Codable, Sendable, Equatable {
        /// Largest absolute difference between two JSON numbers.
        public var number: Double
        /// Largest difference between two timestamps or durations, seconds.
        public var seconds: Double
        /// A pixel differs when one of its channels differs by more than this (0–255).
        public var pixelChannel: Int
        /// Largest share of differing pixels (0–1).
        public var differentPixels: Double
        /// Largest mean absolute difference per channel, in 1/255 units.
        public var meanDifference: Double

        /// Defaults: numbers to 1e-6 (coordinates to ~0.1 mm), times to 1 ms; images may
        /// differ in anti-aliasing of text (FreeType versions) but not in what is drawn.
        public init(
            number: Double = 1e-6, seconds: Double = 0.001, pixelChannel: Int = 24,
            differentPixels: Double = 0.002, meanDifference: Double = 0.25
        ) {
            self.number = number
            self.seconds = seconds
            self.pixelChannel = pixelChannel
            self.differentPixels = differentPixels
            self.meanDifference = meanDifference
        }

        public init(from decoder: any Decoder) throws {
            let defaults = Tolerances()
            let c = try decoder.container(keyedBy: CodingKeys.self)
            number = try c.decodeIfPresent(Double.self, forKey: .number) ?? defaults.number
            seconds = try c.decodeIfPresent(Double.self, forKey: .seconds) ?? defaults.seconds
            pixelChannel = try c.decodeIfPresent(Int.self, forKey: .pixelChannel) ?? defaults.pixelChannel
            differentPixels = try c.decodeIfPresent(Double.self, forKey: .differentPixels) ?? defaults.differentPixels
            meanDifference = try c.decodeIfPresent(Double.self, forKey: .meanDifference) ?? defaults.meanDifference
        }

        private enum CodingKeys: String, CodingKey {
            case number, seconds, pixelChannel, differentPixels, meanDifference
        }
    }
}
