// swift-tools-version: 6.1
// Benchmarks for tripshare, apart from the main package so its users never build
// package-benchmark. Run one suite with: swift package benchmark --target <Suite>
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
            name: "NavigationBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Geo", package: "tripshare"),
                .product(name: "Navigation", package: "tripshare"),
            ],
            path: "NavigationBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
