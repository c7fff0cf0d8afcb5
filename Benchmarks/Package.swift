// swift-tools-version: 6.1
// Benchmarks for tripshare, apart from the main package so its users never build
// package-benchmark. Run one suite with: swift package benchmark --target <Suite>
import PackageDescription

/// A package-benchmark suite in `Benchmarks/<name>/` using the given tripshare products.
func suite(_ name: String, _ products: [String], exclude: [String] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")]
            + products.map { .product(name: $0, package: "tripshare") },
        path: name,
        exclude: exclude,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "tripshare-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "tripshare", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/grpc/grpc-swift-2", exact: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", exact: "2.9.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-http2", exact: "1.46.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
    ],
    targets: [
        suite("GeoBenchmarks", ["Geo"]),
        suite("NavigationBenchmarks", ["Geo", "Navigation"]),
        suite("RasterBenchmarks", ["Raster"]),
        suite("BasemapBenchmarks", ["Basemap", "Raster", "Geo", "JSON", "Render", "Styling", "TripModel"], exclude: ["Mutations"]),
        // A million mutated tiles and archives through the decoders (not a benchmark; run it
        // with `swift run -c release BasemapMutations`).
        .executableTarget(
            name: "BasemapMutations",
            dependencies: [.product(name: "Basemap", package: "tripshare"), .product(name: "TestKit", package: "tripshare")],
            path: "BasemapBenchmarks/Mutations"
        ),
        suite("RenderBenchmarks", ["JSON", "Raster", "Styling", "Render", "TripModel"]),
        suite("NavigationScreenBenchmarks", ["Geo", "Navigation", "Raster", "Styling", "Render", "TripModel"]),
        suite("StoreBenchmarks", ["Geo", "JSON", "TripModel", "Fleet", "SQLiteStore", "TestKit"]),
        suite("VehicleQueryBenchmarks", ["Geo", "TripModel", "TripStore", "Fleet", "SQLiteStore", "PostgresStore", "TestKit"]),
        // The gRPC listener's load client (Benchmarks/Load/grpc-load-test; not a benchmark suite:
        // build it with `swift build -c release --package-path Benchmarks --product GRPCLoad`).
        .executableTarget(
            name: "GRPCLoad",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ],
            path: "GRPCLoad"
        ),
        // grpc-swift's own cost per call under the listener's configuration, driven by GRPCLoad
        // (Benchmarks/Load/grpc-floor-test; build it as GRPCLoad). `GRPCFloor/Listener` links the
        // listener's own files, so the floor runs the same transport setup and interceptors.
        .executableTarget(
            name: "GRPCFloor",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "GRPCFloor"
        ),
        suite("ScenarioBenchmarks", ["Scenarios"]),
    ],
    swiftLanguageModes: [.v6]
)
