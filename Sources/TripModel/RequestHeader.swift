// Fleet Engine's `RequestHeader`: what SDK traffic says about the app that sent it. Accepted
// on every request (in the body where the body is the request, else as `header.*` query
// parameters); nothing depends on it, but its SDK version, platform and OS version are
// counted so an operator sees which apps talk to the server.

/// The standard Fleet Engine request header.
public struct RequestHeader: Codable, Hashable, Sendable {
    /// BCP-47 language code, such as en-US.
    public var languageCode: String?
    /// CLDR region code of the request's origin ("US").
    public var regionCode: String?
    /// The calling SDK's version ("1.2.3").
    public var sdkVersion: String?
    /// The device's operating system version ("14", "17.1").
    public var osVersion: String?
    /// The device's model ("Pixel 8").
    public var deviceModel: String?
    /// Which SDK sent the request.
    public var sdkType: SdkType?
    /// The Maps SDK version the calling SDK depends on.
    public var mapsSdkVersion: String?
    /// The Navigation SDK version the calling SDK depends on.
    public var navSdkVersion: String?
    /// The calling SDK's platform.
    public var platform: Platform?
    /// The Android device's manufacturer.
    public var manufacturer: String?
    /// The Android API level.
    public var androidApiLevel: Int32?
    /// An ID for the request, for logs.
    public var traceId: String?

    /// A header with nothing set.
    public init() {}

    /// Which SDK sent a request.
    public enum SdkType: String, WireEnum {
        case consumer = "CONSUMER"
        case driver = "DRIVER"
        case javascript = "JAVASCRIPT"

        public static var unsetName: String? { "SDK_TYPE_UNSPECIFIED" }
    }

    /// The platform of the SDK that sent a request.
    public enum Platform: String, WireEnum {
        case android = "ANDROID"
        case ios = "IOS"
        case web = "WEB"

        public static var unsetName: String? { "PLATFORM_UNSPECIFIED" }
    }

    /// The fields, by their JSON names: what `header.NAME` query parameters may name.
    public static let fieldNames: Set<String> = [
        "languageCode", "regionCode", "sdkVersion", "osVersion", "deviceModel", "sdkType", "mapsSdkVersion",
        "navSdkVersion", "platform", "manufacturer", "androidApiLevel", "traceId",
    ]

    /// Checks the bounds every input has: each text at most 256 characters.
    public func validate(path: String) throws(StatusError) {
        let texts: [(String, String?)] = [
            ("languageCode", languageCode), ("regionCode", regionCode), ("sdkVersion", sdkVersion), ("osVersion", osVersion),
            ("deviceModel", deviceModel), ("mapsSdkVersion", mapsSdkVersion), ("navSdkVersion", navSdkVersion),
            ("manufacturer", manufacturer), ("traceId", traceId),
        ]
        for (name, value) in texts {
            if let value {
                try Check.text(value, "\(path).\(name)", characters: Limits.maximumAttributeLength, bytes: Limits.maximumAttributeBytes)
            }
        }
    }
}
