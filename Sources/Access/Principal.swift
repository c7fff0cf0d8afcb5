/// A caller's role (DESIGN §4).
package enum Role: String, Sendable, CaseIterable, Codable {
    /// A rider: reads its own trip's journey-sharing view, preview and events.
    case consumer
    /// A driver: reads and updates its own vehicle and moves its trips' status.
    case driver
    /// The provider's backend: everything.
    case server
}

/// Who is calling, from a verified token: a role, bound to one provider (DESIGN §4).
package struct Principal: Sendable, Hashable {
    /// The role claimed.
    package var role: Role
    /// The provider whose resources the token may touch (`authorization.provider`);
    /// ``allProviders`` only on a server token for every provider of this server.
    package var provider: String
    /// The one trip a consumer may see; nil for other roles.
    package var tripId: String?
    /// The one vehicle a driver may act for; nil for other roles.
    package var vehicleId: String?
    /// The token's subject, for logs.
    package var subject: String?

    /// The `authorization.provider` of a server token good for every provider.
    package static let allProviders = "*"

    /// Creates a principal of `provider`.
    package init(role: Role, provider: String, tripId: String? = nil, vehicleId: String? = nil, subject: String? = nil) {
        self.role = role
        self.provider = provider
        self.tripId = tripId
        self.vehicleId = vehicleId
        self.subject = subject
    }

    /// Whether the token may act on `provider`'s resources.
    package func mayAccess(provider: String) -> Bool {
        self.provider == provider || self.provider == Self.allProviders
    }
}
