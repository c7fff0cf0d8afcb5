// swift-tools-version: 6.1
// tripshare: a self-hostable, Fleet Engine–style journey-sharing backend with its own map
// renderer. Module layering (DESIGN.md §1): imports point downwards only.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "tripshare",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "Navigation", targets: ["Navigation"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "Geo", swiftSettings: strict),
        .testTarget(name: "GeoTests", dependencies: ["Geo"], swiftSettings: strict),
        .target(name: "Navigation", dependencies: ["Geo"], swiftSettings: strict),
        .testTarget(
            name: "NavigationTests", dependencies: ["Navigation", "Geo"], exclude: ["Data"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
