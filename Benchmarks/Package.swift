// swift-tools-version: 6.1
// tripshare benchmarks (package-benchmark). Run: cd Benchmarks && swift package benchmark --target <Suite>
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
            name: "GeoBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Geo", package: "tripshare"),
            ],
            path: "GeoBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
