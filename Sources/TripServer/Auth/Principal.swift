/// A caller's role (DESIGN §4).
public enum Role: String, Sendable, CaseIterable, Codable {
    /// A rider: reads its own trip's journey-sharing view, preview and events.
    case consumer
    /// A driver: reads and updates its own vehicle and moves its trips' status.
    case driver
    /// The provider's backend: everything.
    case server
}

/// Who is calling, from a verified token.
public struct Principal: Sendable, Hashable {
    /// The role claimed.
    public var role: Role
    /// The one trip a consumer may see; nil for other roles.
    public var tripId: String?
    /// The one vehicle a driver may act for; nil for other roles.
    public var vehicleId: String?
    /// The token's subject, for logs.
    public var subject: String?

    /// Creates a principal.
    public init(role: Role, tripId: String? = nil, vehicleId: String? = nil, subject: String? = nil) {
        self.role = role
        self.tripId = tripId
        self.vehicleId = vehicleId
        self.subject = subject
    }
}
