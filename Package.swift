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
        .library(name: "Raster", targets: ["Raster"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "Geo", swiftSettings: strict),
        .testTarget(name: "GeoTests", dependencies: ["Geo"], swiftSettings: strict),
        .target(name: "Navigation", dependencies: ["Geo"], swiftSettings: strict),
        .testTarget(
            name: "NavigationTests", dependencies: ["Navigation", "Geo"], exclude: ["Data"],
            swiftSettings: strict),

        // System libraries (Debian: libpng-dev, libfreetype-dev) and the C shim that keeps
        // libpng's setjmp/longjmp error handling out of Swift.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "CPNGShim", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary("png")]),
        .target(name: "Raster", dependencies: ["CPNGShim", "CFreeType"], swiftSettings: strict),
        .testTarget(name: "RasterTests", dependencies: ["Raster"], exclude: ["Fixtures"], swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
