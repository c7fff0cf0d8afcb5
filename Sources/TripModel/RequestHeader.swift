// Fleet Engine's `RequestHeader`: what SDK traffic says about the app that sent it. Accepted
// on every request (in the body where the body is the request, else as `header.*` query
// parameters); nothing depends on it, but its SDK version, platform and OS version are
// counted so an operator sees which apps talk to the server.

/// The standard Fleet Engine request header.
package struct RequestHeader: Codable, Hashable, Sendable {
    /// BCP-47 language code, such as en-US.
    package var languageCode: String?
    /// CLDR region code of the request's origin ("US").
    package var regionCode: String?
    /// The calling SDK's version ("1.2.3").
    package var sdkVersion: String?
    /// The device's operating system version ("14", "17.1").
    package var osVersion: String?
    /// The device's model ("Pixel 8").
    package var deviceModel: String?
    /// Which SDK sent the request.
    package var sdkType: SdkType?
    /// The Maps SDK version the calling SDK depends on.
    package var mapsSdkVersion: String?
    /// The Navigation SDK version the calling SDK depends on.
    package var navSdkVersion: String?
    /// The calling SDK's platform.
    package var platform: Platform?
    /// The Android device's manufacturer.
    package var manufacturer: String?
    /// The Android API level.
    package var androidApiLevel: Int32?
    /// An ID for the request, for logs.
    package var traceId: String?

    /// A header with nothing set.
    package init() {}

    /// Which SDK sent a request.
    package enum SdkType: String, WireEnum {
        case consumer = "CONSUMER"
        case driver = "DRIVER"
        case javascript = "JAVASCRIPT"

        package static var unsetName: String? { "SDK_TYPE_UNSPECIFIED" }
    }

    /// The platform of the SDK that sent a request.
    package enum Platform: String, WireEnum {
        case android = "ANDROID"
        case ios = "IOS"
        case web = "WEB"

        package static var unsetName: String? { "PLATFORM_UNSPECIFIED" }
    }

    /// The fields, by their JSON names: what `header.NAME` query parameters may name.
    package static let fieldNames: Set<String> = [
        "languageCode", "regionCode", "sdkVersion", "osVersion", "deviceModel", "sdkType", "mapsSdkVersion",
        "navSdkVersion", "platform", "manufacturer", "androidApiLevel", "traceId",
    ]

    /// Checks the bounds every input has: each text at most 256 characters.
    package func validate(path: String) throws(StatusError) {
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
