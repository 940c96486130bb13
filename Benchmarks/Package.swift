// swift-tools-version:6.1
import PackageDescription

// A package of its own, so AsyncHTTPClient (and with it the whole SwiftNIO client stack) is
// resolved and built only by people who run the benchmarks, never by the library's users or CI.
// `Benchmarks/run` builds and runs it; see README.md beside this file.
let package = Package(
    name: "CourierBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The root package, by path: the benchmarks always measure the working tree's Courier.
        .package(name: "Courier", path: ".."),
        // Pinned exactly: the figures are only comparable run to run against one client version.
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        // The WebSocket rows' peer client and their echo server are written on NIOWebSocket; pinned
        // to the version AsyncHTTPClient resolves to here, for the same reason.
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
    ],
    targets: [
        // Counts malloc-family calls by defining them in the executable itself (no LD_PRELOAD);
        // the same file is compiled into the C program so both sides count alike.
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "courier-benchmark",
            dependencies: [
                "CAllocationCounter",
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierCurl", package: "Courier"),
                .product(name: "CourierWebSocket", package: "Courier"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // A fixed number of requests with a synchronous main, for instruction counts under
        // callgrind (see the `profile` script).
        .executableTarget(
            name: "courier-profile",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierCurl", package: "Courier"),
            ]
        ),
        // Start-up time without AsyncHTTPClient's code in the binary: links only what an app would.
        .executableTarget(
            name: "courier-once",
            dependencies: [
                .product(name: "Courier", package: "Courier"),
                .product(name: "CourierCurl", package: "Courier"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
