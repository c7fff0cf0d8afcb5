// swift-tools-version: 6.1
// Benchmarks for tripshare, kept out of the root package so that building or testing the
// product never builds package-benchmark. Run: swift package benchmark --target <Suite>
import PackageDescription

let package = Package(
    name: "tripshare-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "tripshare", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "RasterBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Raster", package: "tripshare"),
            ],
            path: "RasterBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
