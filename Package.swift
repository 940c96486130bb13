// swift-tools-version:6.1
import PackageDescription

// `Courier`, `CourierCurl` and `CourierCombine` are what users depend on; none pulls in SwiftNIO.
// `CourierConfiguration` is the only product that depends on swift-configuration, so an app that
// never reads a ConfigReader never builds it. Resolving is another matter: SwiftPM fetches every
// package this manifest lists (with what they depend on: 14 checkouts for `Courier` +
// `CourierCurl`), because it resolves by package, before it knows which products a target uses;
// it then compiles only the targets the app's products reach, which for `Courier` and
// `CourierCurl` is neither SwiftNIO nor any of the packages below.
// `CourierOpenAPI` alone depends on swift-openapi-runtime and swift-http-types, and not on
// `CourierCurl`, so an app that runs a generated client over URLSession never links libcurl.
// `CourierTestServer` is a separate product so the tests, the `courier` tool and the
// benchmarks package can share one HTTP server without it ever reaching an app.

// Every ```swift block of README.md and of the DocC catalogs is one whole file,
// Tests/Snippets/<Name>/<Name>.swift, compiled as a module of its own: a block that leans on a
// declaration or an import it does not have fails the build, as it would pasted alone into an
// app. Each module may use every library product, but sees only what its file imports
// (member-import visibility), and is compiled without the package's name (`packageAccess: false`)
// so that Courier's `package` declarations are out of its reach, as they are for an app. CourierSnippetTests checks
// that each block is byte-equal to its file and runs the examples that can run.
let snippetModules = [
    "ReadmeURLSession", "ReadmeCurl",
    "CourierOverview", "CourierOverviewPost", "ChoosingATransportConfiguration", "ChoosingATransportParity",
    "ChoosingATransportParityTests", "PoliciesHardened", "PoliciesRetries", "StreamingDownload",
    "StreamingMetrics", "StreamingResume", "StreamingSequence", "StreamingUpload", "StreamingMultipart", "StreamingDuplex", "ObservabilityClient", "PoliciesLayers", "PoliciesAuthentication",
    "CachingOverview", "CachingOffline",
    "ComingFromFunctionalNetworking", "ComingFromNetworkingWithFunctions", "ComingFromWireKit",
    "ComingFromDerivingFuture", "ComingFromTypeSafeNetworking",
    "CourierCombineOverview", "CourierConfigurationOverview", "CourierSSEOverview",
    "CurlHTTP2PriorKnowledge", "CurlTLSIdentity", "CurlProxiesAndSockets",
    "CurlDNSOverHTTPS", "CurlHTTP3", "WebSocketsChat", "ImplementingATransportEngine",
]
let snippetTargets: [Target] = snippetModules.map { name in
    .target(
        name: name,
        dependencies: [
            "Courier", "CourierCombine", "CourierConfiguration", "CourierCurl", "CourierLogging",
            "CourierMetrics", "CourierOpenAPI", "CourierParity", "CourierSSE", "CourierTracing", "CourierWebSocket",
            .product(name: "Configuration", package: "swift-configuration"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Tracing", package: "swift-distributed-tracing"),
            .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
        ],
        path: "Tests/Snippets/\(name)",
        packageAccess: false,
        swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
    )
}

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierCombine", targets: ["CourierCombine"]),
        .library(name: "CourierCurl", targets: ["CourierCurl"]),
        .library(name: "CourierConfiguration", targets: ["CourierConfiguration"]),
        .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"]),
        .library(name: "CourierParity", targets: ["CourierParity"]),
        .library(name: "CourierSSE", targets: ["CourierSSE"]),
        .library(name: "CourierTestServer", targets: ["CourierTestServer"]),
        .library(name: "CourierLogging", targets: ["CourierLogging"]),
        .library(name: "CourierMetrics", targets: ["CourierMetrics"]),
        .library(name: "CourierTracing", targets: ["CourierTracing"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
        .executable(name: "courier", targets: ["courier"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
        // Only the `courier` tool parses arguments; no library product depends on it.
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.0"),
        // JSON only, named rather than left to the default set, so a later default (YAML, reloading,
        // logging) never reaches Courier's users unasked; an app enables more traits itself.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: ["JSON"]),
        // Only `CourierOpenAPI` and its tests. The floor is the oldest runtime whose
        // `ClientTransport` and `HTTPBody` this module needs, so that an app keeps the runtime
        // its generated code was made for; the generator itself is never a dependency.
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Each only for the observability product of its name, so an app that composes none of
        // those layers never builds them.
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.0"),
    ],
    targets: [
        .target(name: "Courier"),
        .target(
            name: "CourierCombine",
            dependencies: [
                "Courier",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
            ]
        ),
        .systemLibrary(
            name: "CCurl",
            path: "Modules/CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(name: "CEpoll", path: "Modules/CEpoll"),
        // WebSockets over either engine, a product apart as server-sent events are, so that an
        // app that opens no WebSocket compiles none of it.
        .target(name: "CourierWebSocket", dependencies: ["Courier"]),
        // zlib for the WebSocket client's permessage-deflate; libcurl links it already.
        .target(name: "CourierCurl", dependencies: ["Courier", "CourierWebSocket", "CCurl", "CEpoll", "CZlib"]),
        .target(name: "CourierParity", dependencies: ["Courier", "CourierCurl"]),
        // Server-sent events over either engine, a product apart as OkHttp ships okhttp-sse, so
        // that an app that streams no events compiles none of it.
        .target(name: "CourierSSE", dependencies: ["Courier"]),
        .target(
            name: "CourierConfiguration",
            dependencies: [
                "Courier",
                "CourierCurl",
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .target(
            name: "CourierOpenAPI",
            dependencies: [
                "Courier",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Observability: each a layer over `HTTPExchange` that reads the engine's metrics, in a
        // product of its own so that `Courier` and `CourierCurl` pull in none of these packages.
        .target(name: "CourierLogging", dependencies: ["Courier", .product(name: "Logging", package: "swift-log")]),
        .target(name: "CourierMetrics", dependencies: ["Courier", .product(name: "Metrics", package: "swift-metrics")]),
        .target(name: "CourierTracing", dependencies: ["Courier", .product(name: "Tracing", package: "swift-distributed-tracing")]),
        .systemLibrary(
            name: "CZlib",
            path: "Modules/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CBrotli",
            path: "Modules/CBrotli",
            pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            path: "Modules/CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .target(
            name: "CourierTestServer",
            dependencies: [
                "CZlib",
                "CBrotli",
                "CZstd",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "courier",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierCombine",
                "CourierParity",
                "CourierSSE",
                "CourierWebSocket",
                "CourierTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Measurement tools, never products, kept in Tools/ so that Sources/ holds only what
        // users depend on and the `courier` tool: a quick benchmark (scripts/quickbench) and a
        // synchronous-main probe that valgrind can run (scripts/valgrind-probe), and storms and a
        // soak that count descriptors, threads and RSS (scripts/storms).
        .executableTarget(
            name: "courier-quickbench",
            dependencies: ["Courier", "CourierCurl", "CourierTestServer", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Tools/courier-quickbench"
        ),
        .executableTarget(
            name: "courier-observability-bench",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierLogging",
                "CourierMetrics",
                "CourierTracing",
                "CourierTestServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tools/courier-observability-bench"
        ),
        .executableTarget(
            name: "courier-storms",
            dependencies: ["Courier", "CourierCurl", "CourierTestServer"],
            path: "Tools/courier-storms"
        ),
        .executableTarget(
            name: "courier-bomb-aftermath",
            dependencies: ["Courier", "CourierCurl"],
            path: "Tools/courier-bomb-aftermath"
        ),
        .executableTarget(
            name: "courier-valgrind-probe",
            dependencies: ["CourierCurl", "CourierTestServer"],
            path: "Tools/courier-valgrind-probe"
        ),
        // Fuzz targets (scripts/fuzz): each replays its committed corpus in a normal build, which
        // `scripts/test` runs, and becomes a libFuzzer binary when built with -DCOURIER_FUZZ and
        // -sanitize=fuzzer. They sit in the root package because they test `package` symbols.
        .target(name: "CourierFuzzSupport", path: "Tools/fuzz/Support"),
        .executableTarget(
            name: "courier-fuzz-response-head",
            dependencies: ["CourierCurl", "CourierFuzzSupport"],
            path: "Tools/fuzz/response-head",
            exclude: ["corpus", "fuzz.dict"]
        ),
        .executableTarget(
            name: "courier-fuzz-redirect",
            dependencies: ["Courier", "CourierFuzzSupport"],
            path: "Tools/fuzz/redirect",
            exclude: ["corpus", "fuzz.dict"]
        ),
        .executableTarget(
            name: "courier-fuzz-request-validation",
            dependencies: ["Courier", "CourierFuzzSupport"],
            path: "Tools/fuzz/request-validation",
            exclude: ["corpus", "fuzz.dict"]
        ),
        .executableTarget(
            name: "courier-fuzz-curl-error",
            dependencies: ["CourierCurl", "CourierFuzzSupport"],
            path: "Tools/fuzz/curl-error",
            exclude: ["corpus"]
        ),
        // Helpers shared by test targets; a plain target, so it is never a product.
        .target(name: "CourierTestSupport", dependencies: ["Courier"], path: "Tests/CourierTestSupport"),
        // Real HTTP and SOCKS5 proxies on loopback for the routing tests; never a product.
        .target(
            name: "CourierProxyTestSupport",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/CourierProxyTestSupport"
        ),
        // A real WebSocket server on loopback for the WebSocket tests; never a product.
        .target(
            name: "CourierWebSocketTestSupport",
            dependencies: [
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "Tests/CourierWebSocketTestSupport"
        ),
        .testTarget(name: "CourierTests", dependencies: ["Courier", "CourierWebSocket", "CourierTestServer", "CourierTestSupport"]),
        .testTarget(name: "CourierCombineTests", dependencies: ["Courier", "CourierCombine", "CourierTestSupport"]),
        .testTarget(name: "CourierTestServerTests", dependencies: ["CourierTestServer"]),
        // Runs the built `courier` executable as a subprocess against an embedded server.
        .testTarget(
            name: "courierTests",
            dependencies: ["courier", "CourierTestServer", "CourierTestSupport", "CourierProxyTestSupport", "CourierWebSocketTestSupport"]
        ),
        .testTarget(
            name: "CourierCurlTests",
            dependencies: [
                "Courier", "CourierCurl", "CourierWebSocket", "CourierTestServer", "CourierTestSupport",
                "CourierProxyTestSupport", "CourierWebSocketTestSupport",
            ]
        ),
        // HTTP/3 against a hypercorn server; cheap to build alone (no test server, no NIO), for
        // the run on a libcurl with HTTP/3 (scripts/test-http3).
        .testTarget(name: "CourierCurlHTTP3Tests", dependencies: ["Courier", "CourierCurl", "CourierTestSupport"]),
        .testTarget(
            name: "CourierTransportTests",
            dependencies: ["Courier", "CourierCurl", "CourierTestServer", "CourierTestSupport"]
        ),
        .testTarget(
            name: "CourierConfigurationTests",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierConfiguration",
                "CourierTestServer",
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        // What the three observability test modules share: an engine over a test server, and
        // the secrets that must never come out.
        .target(
            name: "CourierObservabilityTestSupport",
            dependencies: ["Courier", "CourierCurl", "CourierTestServer"],
            path: "Tests/CourierObservabilityTestSupport"
        ),
        .testTarget(
            name: "CourierLoggingTests",
            dependencies: [
                "Courier", "CourierCurl", "CourierLogging", "CourierTestServer", "CourierObservabilityTestSupport",
                "CourierWebSocket", "CourierWebSocketTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CourierMetricsTests",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierObservabilityTestSupport",
                "CourierMetrics",
                "CourierTestServer",
                "CourierWebSocket",
                "CourierWebSocketTestSupport",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "CourierTracingTests",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierObservabilityTestSupport",
                "CourierTracing",
                "CourierTestServer",
                "CourierWebSocket",
                "CourierWebSocketTestSupport",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "CourierParityTests",
            dependencies: [
                "Courier", "CourierCurl", "CourierParity", "CourierTestServer", "CourierTestSupport", "CourierWebSocket",
                "CourierWebSocketTestSupport",
            ]
        ),
        // Generated/ holds the client made from openapi.yaml once, by hand (see its README), so
        // that building the tests never builds the generator.
        .testTarget(
            name: "CourierOpenAPITests",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierOpenAPI",
                "CourierTestServer",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml", "Generated/README.md"]
        ),
        .testTarget(
            name: "CourierSSETests",
            dependencies: ["Courier", "CourierCurl", "CourierSSE", "CourierTestServer"]
        ),
        .testTarget(
            name: "CourierSnippetTests",
            dependencies: [
                "Courier", "CourierCurl", "CourierTestServer", "CourierTestSupport", "CourierWebSocket", "CourierWebSocketTestSupport",
            ]
                + snippetModules.map { .target(name: $0) }
        ),
    ],
    swiftLanguageModes: [.v6]
)
package.targets += snippetTargets

// The sanitizer runs of scripts/test run only the engines' suites: curl, transport and parity.
// Under a sanitizer every other test target and what it alone needs (OpenCombine,
// swift-configuration, the OpenAPI runtime, the observability libraries, the tool's argument
// parser) would only be compiled again, for minutes on 2 cores, so scripts/test builds the test
// product with this variable set and the package then declares those three test targets alone.
if Context.environment["COURIER_ENGINE_TESTS_ONLY"] != nil {
    let engineTests: Set<String> = ["CourierCurlTests", "CourierTransportTests", "CourierParityTests"]
    package.targets.removeAll { $0.type == .test && !engineTests.contains($0.name) }
}

// scripts/test-http3 builds against a libcurl with HTTP/3 (another soname, in a scratch path of
// its own) and runs only the HTTP/3 tests, whose target needs neither the test server nor NIO.
if Context.environment["COURIER_HTTP3_TESTS_ONLY"] != nil {
    package.targets.removeAll { $0.type == .test && $0.name != "CourierCurlHTTP3Tests" }
}
