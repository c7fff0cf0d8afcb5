// swift-tools-version: 6.1
// tripshare: a self-hostable, Fleet Engine–style journey-sharing backend with its own map
// renderer. Module layering (docs/architecture.md §1): imports point downwards only.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "tripshare",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tripshare", targets: ["tripshare"]),
        // Only what Benchmarks/ and Fuzz/ link, lowest layer first (docs/architecture.md §1); the
        // other modules are this package's own.
        .library(name: "JSON", targets: ["JSON"]),
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "TripModel", targets: ["TripModel"]),
        .library(name: "Navigation", targets: ["Navigation"]),
        .library(name: "Raster", targets: ["Raster"]),
        .library(name: "Basemap", targets: ["Basemap"]),
        .library(name: "Styling", targets: ["Styling"]),
        .library(name: "Render", targets: ["Render"]),
        .library(name: "TripStore", targets: ["TripStore"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "Fleet", targets: ["Fleet"]),
        .library(name: "TestKit", targets: ["TestKit"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        // Fleet Engine's gRPC wire (DESIGN §14).
        .package(url: "https://github.com/grpc/grpc-swift-2", exact: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", exact: "2.9.2"),
        .package(url: "https://github.com/apple/swift-nio-http2", exact: "1.46.0"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
    ],
    targets: [
        // The one bounded cache type, below every module that caches (Raster included).
        .target(name: "Caching", swiftSettings: strict),
        // Our strict JSON parser, streaming encoder and field-path errors: the bottom layer every
        // module that reads or writes JSON shares.
        .target(name: "JSON", swiftSettings: strict),
        .target(name: "Geo", swiftSettings: strict),
        .target(name: "TripModel", dependencies: ["Geo", "JSON"], swiftSettings: strict),
        .target(name: "TripStore", dependencies: ["Caching", "Geo", "JSON", "TripModel"], swiftSettings: strict),
        .target(
            name: "SQLiteStore",
            dependencies: [
                "Caching", "Geo", "JSON", "TripModel", "TripStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("migrations")],
            swiftSettings: strict
        ),
        // The scale-out store (DESIGN §2, §11): the same protocol on PostgreSQL, its own migrations,
        // LISTEN/NOTIFY fan-out.
        .target(
            name: "PostgresStore",
            dependencies: [
                "Caching", "Geo", "JSON", "TripModel", "TripStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.copy("migrations")],
            swiftSettings: strict
        ),
        .target(name: "Navigation", dependencies: ["Geo", "JSON", "TripModel"], swiftSettings: strict),
        .target(
            name: "Fleet",
            dependencies: [
                "Caching", "Geo", "JSON", "TripModel", "TripStore", "Navigation", "Styling",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        // The body of the tests every store implementation runs (in-memory, SQLite, and any
        // other): a library, so each store's test target calls it with its own factory.
        .target(
            name: "TripStoreTesting",
            dependencies: ["Geo", "JSON", "TripModel", "Navigation", "TripStore", "Fleet", "TestKit", "TripModelTesting"],
            swiftSettings: strict),
        // Fresh stores of every kind (in-memory, SQLite, PostgreSQL) for the suites that run
        // on each: apart from the conformance bodies, so a store's own tests build only it.
        .target(
            name: "StoreVariants",
            dependencies: ["TripStore", "SQLiteStore", "PostgresStore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict),
        // The test kits, one per layer, so a test target compiles only the layers it tests:
        // the seeded generator (no layer; the benchmarks use it too), the settable clock,
        // forged tokens, golden pictures and the straight test route.
        .target(name: "TestKit", swiftSettings: strict),
        .target(name: "TripModelTesting", dependencies: ["TripModel"], swiftSettings: strict),
        .target(
            name: "AccessTesting", dependencies: ["TripModel", "TripModelTesting", .product(name: "JWTKit", package: "jwt-kit")],
            swiftSettings: strict),
        .target(name: "RasterTesting", dependencies: ["Raster"], swiftSettings: strict),
        .target(name: "NavigationTesting", dependencies: ["Geo", "Navigation"], swiftSettings: strict),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "CPNGShim", dependencies: ["CPNG"], linkerSettings: [.linkedLibrary("png")]),
        .target(name: "Raster", dependencies: ["Caching", "CPNGShim", "CFreeType"], swiftSettings: strict),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // glibc's malloc settings, for the server process's memory (docs/operations.md, "Memory").
        .systemLibrary(name: "CMalloc"),
        // Vector and raster basemaps (DESIGN §13): tile archives, MVT decoding, the map-style
        // subset and drawing onto a Raster canvas. Knows nothing of trips.
        .target(
            name: "Basemap",
            dependencies: ["Caching", "JSON", "Raster", "Geo", "CZlib", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("styles")],
            swiftSettings: strict
        ),
        .target(name: "Styling", dependencies: ["Caching", "JSON", "Raster", "TripModel"], resources: [.copy("styles")], swiftSettings: strict),
        .target(name: "Render", dependencies: ["Basemap", "Styling", "Raster", "TripModel", "Geo", "JSON", "Navigation"], swiftSettings: strict),
        // The open-file limit and the connection budget every listener of the process shares
        // (REST and gRPC): transport plumbing without HTTP, below both servers.
        .target(
            name: "ConnectionLimits", dependencies: [.product(name: "NIOCore", package: "swift-nio")], swiftSettings: strict),
        // Tokens (ours and Fleet Engine's), principals, the role rules and rate limits: the one
        // policy both wires call (DESIGN §4).
        .target(
            name: "Access",
            dependencies: ["Caching", "JSON", "TripModel", .product(name: "JWTKit", package: "jwt-kit")],
            swiftSettings: strict
        ),
        .target(
            name: "TripServer",
            dependencies: [
                "Access", "Caching", "ConnectionLimits", "Geo", "JSON", "TripModel", "TripStore", "Fleet", "Styling", "Render", "Navigation",
                "Raster",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("openapi.json"), .copy("share"), .copy("drive"), .copy("pages"), .copy("home")],
            swiftSettings: strict
        ),
        // The API test kit (as hummingbird ships HummingbirdTesting): a server without a socket
        // over TripServer's in-process transport, a restartable one over a real database, the
        // client and the request bodies the tests send. Only test targets import it.
        .target(
            name: "TripServerTesting",
            dependencies: [
                "Access", "Fleet", "JSON", "TripServer", "TripModel", "TripStore", "Render", "SQLiteStore", "PostgresStore", "StoreVariants",
                "TripModelTesting", "AccessTesting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Fixture scenarios, the Fleet Engine log's calls (import, replay, the demo's drive) and
        // the golden comparison: the test suite runs the batch runner too, so it cannot live in
        // the executable.
        .target(
            name: "Scenarios",
            dependencies: [
                "Access", "TripServer", "TripStore", "SQLiteStore", "TripModel", "Navigation", "Raster", "Geo", "JSON",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // Swift generated from our .proto files of Fleet Engine's v1 wire (Protos/,
        // scripts/generate-protos; committed, never edited by hand). Only GRPCServer imports it.
        .target(
            name: "FleetEngineProtos",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
            ]
        ),
        // Fleet Engine's gRPC services over Fleet (DESIGN §14): parse, authorise through Access,
        // call Fleet, encode; no rule lives here.
        .target(
            name: "GRPCServer",
            dependencies: [
                "Access", "Caching", "ConnectionLimits", "Fleet", "FleetEngineProtos", "JSON", "TripModel", "TripStore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "tripshare",
            dependencies: [
                "Access", "Caching", "GRPCServer", "TripServer", "Fleet", "SQLiteStore", "PostgresStore", "TripStore", "TripModel", "Scenarios",
                "Styling",
                "Render", "Basemap", "Navigation", "Raster", "Geo", "JSON", "ConnectionLimits", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "CachingTests", dependencies: ["Caching"], swiftSettings: strict),
        .testTarget(name: "GeoTests", dependencies: ["Geo", "TestKit"], swiftSettings: strict),
        .testTarget(
            name: "ConnectionLimitsTests",
            dependencies: ["ConnectionLimits", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")],
            swiftSettings: strict),
        .testTarget(name: "TripModelTests", dependencies: ["TripModel", "JSON"], swiftSettings: strict),
        .testTarget(name: "TripStoreTests", dependencies: ["Caching", "Geo", "TripModel", "TripStore", "TripStoreTesting"], swiftSettings: strict),
        .testTarget(
            name: "SQLiteStoreTests",
            dependencies: [
                "Caching", "SQLiteStore", "TripStore", "TripStoreTesting", "TripModelTesting", "Fleet", "TripModel", "Geo", "JSON",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "PostgresStoreTests",
            dependencies: [
                "PostgresStore", "TripStore", "TripStoreTesting", "StoreVariants", "Fleet", "TripModel", "Geo",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "FleetTests",
            dependencies: ["Fleet", "TripStore", "TripModel", "Navigation", "Styling", "Geo", "TripModelTesting", "NavigationTesting"],
            swiftSettings: strict),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "TestKit"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "BasemapTests", dependencies: ["Basemap", "JSON", "Raster", "Geo", "RasterTesting", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(name: "StylingTests", dependencies: ["Styling", "Raster", "JSON", "TripModel"], swiftSettings: strict),
        .testTarget(
            name: "RenderTests", dependencies: ["Render", "Basemap", "Styling", "Navigation", "Raster", "Geo", "JSON", "TripModel", "RasterTesting"],
            exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "NavigationTests", dependencies: ["Navigation", "Geo", "JSON", "TripModel", "NavigationTesting"], exclude: ["Data"],
            swiftSettings: strict),
        .testTarget(
            name: "TripServerTests",
            dependencies: [
                "Access", "TripServer", "TripServerTesting", "Fleet", "Styling", "Render", "Raster", "TripStore", "SQLiteStore", "PostgresStore",
                "StoreVariants", "TripModelTesting", "AccessTesting", "NavigationTesting",
                "TripModel", "Navigation", "Geo", "JSON", "ConnectionLimits",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AccessTests",
            dependencies: [
                "Access", "Caching", "JSON", "TripModel", "TripModelTesting", "AccessTesting", .product(name: "JWTKit", package: "jwt-kit"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "GRPCServerTests",
            dependencies: [
                "Access", "GRPCServer", "FleetEngineProtos", "Fleet", "JSON", "TripModel", "TripServer", "TripServerTesting", "TripStore",
                "StoreVariants",
                "SQLiteStore", "PostgresStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "ScenariosTests",
            dependencies: [
                "Access", "Scenarios", "TripServer", "TripServerTesting", "SQLiteStore", "PostgresStore", "TripStore", "StoreVariants",
                "TripModel",
                "Raster", "Navigation", "JSON",
            ],
            exclude: ["EstimateFigures.json"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
