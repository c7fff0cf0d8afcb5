// A fixture scenario (DESIGN §10): resources, a timed list of REST calls and checkpoints.
// The timeline is the API contract itself — each call is the body and update mask a client
// sends — so a scenario can be replayed against any tripshare, and reading one tells what
// the server was asked. The format is documented in Tests/Fixtures/README.md.

import JSON
import TripModel

/// One fixture: what to send to the API, when, and what to look at on the way.
public struct Scenario: Sendable {
    /// The version of the format this value follows.
    package static let currentFormat = 1

    /// Format version (``currentFormat``).
    package var format: Int
    /// Short name (the folder's name, by convention).
    package var name: String
    /// What the scenario shows, for people.
    package var description: String
    /// Where its data comes from, with the attribution the source asks for.
    package var source: String?
    /// What was inferred or changed while making it (importers say what they guessed here).
    package var notes: [String]
    /// The provider every resource lives under.
    package var provider: String
    /// Create bodies of the vehicles, by ID (sent by `createVehicle` calls).
    package var vehicles: [String: JSONValue]
    /// Create bodies of the trips, by ID (sent by `createTrip` calls).
    package var trips: [String: JSONValue]
    /// Routes with steps (`PUT .../vehicles/{id}/route` bodies), by name.
    package var routes: [String: JSONValue]
    /// Style sheets (`PUT /v1/styles/{name}` bodies), by style name.
    package var styles: [String: JSONValue]
    /// The calls, in time order.
    package var timeline: [Call]
    /// What to record, in time order.
    package var checkpoints: [Checkpoint]
    /// How close results must be to the goldens.
    package var tolerances: Tolerances

    /// An empty scenario.
    package init(name: String, description: String, provider: String) {
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
    package struct Call: Codable, Sendable {
        /// What kind of call.
        package enum Operation: String, Codable, Sendable, CaseIterable {
            case createVehicle, updateVehicle, deleteVehicle, createTrip, updateTrip, deleteTrip, setRoute, deleteRoute, putStyle
        }

        /// When it is sent (the server's clock reads this time while it runs).
        package var at: Timestamp
        /// The kind of call.
        package var op: Operation
        /// The vehicle, trip or style the call is about.
        package var id: String
        /// `updateMask` of an update.
        package var updateMask: String?
        /// The body; a create without one sends the body in `vehicles`/`trips`.
        package var body: JSONValue?
        /// `setRoute`: the name of the route in `routes`.
        package var route: String?
        /// The HTTP status the server must answer (200 when absent).
        package var expectStatus: Int?

        /// A call.
        package init(
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
    package struct Checkpoint: Codable, Sendable {
        /// Names the golden files (`expected/NAME.trip.json`, `NAME.png`, ...).
        package var name: String
        /// When (after every call at or before this time).
        package var at: Timestamp
        /// Record this trip as its rider sees it (`JOURNEY_SHARING_V1S`): `NAME.trip.json`.
        package var trip: String?
        /// Record this vehicle as a server reads it: `NAME.vehicle.json`.
        package var vehicle: String?
        /// Record this vehicle's `navInfo`: `NAME.navinfo.json`.
        package var navInfo: String?
        /// Record the events logged since the previous checkpoint: `NAME.events.json`.
        package var events: EventSelection?
        /// Render a trip preview: `NAME.png`.
        package var render: RenderRequest?

        /// A checkpoint recording nothing yet.
        package init(name: String, at: Timestamp) {
            self.name = name
            self.at = at
        }
    }

    /// Which events a checkpoint records.
    package struct EventSelection: Codable, Sendable {
        /// The vehicle whose events (its own and its trips') are recorded.
        package var vehicle: String
        /// Only these event types; every type when absent.
        package var types: [String]?

        /// A selection.
        package init(vehicle: String, types: [String]? = nil) {
            self.vehicle = vehicle
            self.types = types
        }
    }

    /// A trip preview to render, with the options of `preview.png`.
    package struct RenderRequest: Codable, Sendable {
        /// The trip.
        package var trip: String
        /// A bundled style name, or a style of the scenario's `styles`.
        package var style: String?
        /// Query parameters of `preview.png` (`width`, `height`, `scale`, `center`, `zoom`,
        /// `bearing`, `padding`, `lighting`), as text.
        package var options: [String: String]?

        /// A render request.
        package init(trip: String, style: String? = nil, options: [String: String]? = nil) {
            self.trip = trip
            self.style = style
            self.options = options
        }

        /// Encodes the options in key order, so a scenario file is the same on every write (a
        /// dictionary's own order changes from process to process).
        package func encode(to encoder: any Encoder) throws {
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
    package struct Tolerances: Codable, Sendable, Equatable {
        /// Largest absolute difference between two JSON numbers.
        package var number: Double
        /// Largest difference between two timestamps or durations, seconds.
        package var seconds: Double
        /// A pixel differs when one of its channels differs by more than this (0–255).
        package var pixelChannel: Int
        /// Largest share of differing pixels (0–1).
        package var differentPixels: Double
        /// Largest mean absolute difference per channel, in 1/255 units.
        package var meanDifference: Double

        /// Defaults: numbers to 1e-6 (coordinates to ~0.1 mm), times to 1 ms; images may
        /// differ in anti-aliasing of text (FreeType versions) but not in what is drawn.
        package init(
            number: Double = 1e-6, seconds: Double = 0.001, pixelChannel: Int = 24,
            differentPixels: Double = 0.002, meanDifference: Double = 0.25
        ) {
            self.number = number
            self.seconds = seconds
            self.pixelChannel = pixelChannel
            self.differentPixels = differentPixels
            self.meanDifference = meanDifference
        }

        package init(from decoder: any Decoder) throws {
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
