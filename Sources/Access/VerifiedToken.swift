/// A token whose signature and claims have been checked: what ``TokenAuthority`` keeps so that
/// the next request with the same token skips the signature check (only its time window is
/// checked again).
struct VerifiedToken: Sendable {
    /// The caller the token stands for.
    var principal: Principal
    /// Its `exp`, in seconds since 1970.
    var expires: Double
    /// When it becomes valid (the later of its `iat` and `nbf`), in seconds since 1970.
    var notBefore: Double

    /// About how many bytes the entry holds in the cache under `token`: the token's text (a
    /// rider's HS256 token runs to about 300 characters), the principal's strings, the entry
    /// itself and its slots in the cache's ring and dictionary. About 600 bytes for a rider's
    /// token, so 50,000 riders take some 30 MB.
    func approximateBytes(token: String) -> Int {
        let strings = [principal.provider, principal.tripId, principal.vehicleId, principal.subject].reduce(0) {
            $0 + Self.heapBytes($1)
        }
        return Self.heapBytes(token) + strings + MemoryLayout<VerifiedToken>.stride + Self.slotBytes
    }

    /// The ring's and the dictionary's share of one entry (key, value, cost, flag, position,
    /// and the dictionary's spare capacity).
    private static let slotBytes = 96

    /// The heap bytes of a string: none when it fits inline (15 bytes of UTF-8 or fewer).
    private static func heapBytes(_ text: String?) -> Int {
        guard let count = text?.utf8.count, count > 15 else { return 0 }
        return count + 32
    }
}
