/// The release of tripshare: what `tripshare --version` prints and the API description's
/// `info.version` (a test keeps the two equal).
package enum TripshareVersion {
    /// The version, semantic-versioning style.
    package static let current = "1.0.0"
}
