// swift-tools-version: 6.1
// Fuzz targets for every parser that takes bytes from outside (issue 17, item 9): the Swift
// toolchain's libFuzzer with the address sanitizer. A package of its own, built into
// ../.build-fuzz by `scripts/fuzz` only: neither `swift build` of the project nor CI builds it.
//
// Each target is an executable whose `main` hands its test function to libFuzzer's driver
// (LLVMFuzzerRunDriver): SwiftPM links an executable's own entry point as `main`, which
// rules out libFuzzer's. scripts/fuzz builds the code instrumented as -sanitize=fuzzer would
// and links libFuzzer without its main; built any other way the targets do not link.
import PackageDescription

/// Target name (also the executable's name after "fuzz-") and the project product it tests.
let targets: [(name: String, products: [String])] = [
    ("json", ["JSON"]),
    ("strict-decoder", ["JSON", "TripModel"]),
    ("encoded-polyline", ["Geo", "TripModel"]),
    ("s2-polyline", ["Geo"]),
    ("png", ["Raster"]),
    ("style", ["Styling"]),
    ("osrm", ["Navigation"]),
    ("valhalla", ["Navigation"]),
    ("nav-route", ["JSON", "Navigation", "TripModel"]),
    ("fleet-log", ["Scenarios"]),
    ("mvt", ["Basemap"]),
    ("pmtiles", ["Basemap"]),
    ("map-style", ["Basemap"]),
]

let package = Package(
    name: "tripshare-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "tripshare", path: "..")],
    targets: [
        .target(name: "FuzzDriver", path: "Targets/FuzzDriver"),
        .target(name: "FuzzSupport", dependencies: ["FuzzDriver"], path: "Targets/FuzzSupport"),
    ]
        + targets.map { target in
            .executableTarget(
                name: "fuzz-\(target.name)",
                dependencies: ["FuzzSupport"] + target.products.map { .product(name: $0, package: "tripshare") },
                path: "Targets/\(target.name)"
            )
        },
    swiftLanguageModes: [.v6]
)
