#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AsyncHTTPClient
import Courier
import CourierCurl
import Foundation
import NIOCore

/// Streams at once on the one HTTP/2 connection of the h2 rows: all of the burst's 2,000.
/// Benchmarks/run gives nginx the same (`http2_max_concurrent_streams`, 128 by default), and
/// AsyncHTTPClient takes the server's; c/multi-get.c sets it too (`H2_STREAMS`).
let http2StreamsPerConnection = 2_000

/// A client reduced to what the driver needs: send the workload's request once and return the
/// body's size; throw for anything but a 200.
struct BenchmarkClient: Sendable {
    var name: String
    var fetch: @Sendable () async throws -> Int
    var shutdown: @Sendable () async -> Void
    /// When set, the driver's tasks prefer this executor (CurlTransport's own thread).
    var executor: (any TaskExecutor)? = nil
    /// Sends one request to `/slow` on the same transport and waits for its answer, which nginx
    /// holds back (the `-idleN` scale workloads); nil for a client that does not take part.
    var holdOpen: (@Sendable () async throws -> Void)? = nil
}

enum BenchmarkError: Error, CustomStringConvertible {
    case unknownClient(String)
    case unknownWorkload(String)
    case badURL(String)
    case status(Int)
    case unreadable(String)

    var description: String {
        switch self {
        case .unknownClient(let name): "unknown client \(name) (curl, curl-response, curl-executor, curl-stream, curl-apiclient, curl-apiclient-nometrics, curl-h2, curl-h2-apiclient, curl-h3, curl-h3-apiclient, urlsession, ahc, ahc-h2)"
        case .unknownWorkload(let name): "unknown workload \(name)"
        case .badURL(let text): "not a URL: \(text)"
        case .status(let code): "HTTP status \(code), expected 200"
        case .unreadable(let path): "cannot read \(path)"
        }
    }
}

func makeClient(_ name: String, url: URL, workload: Workload) throws -> BenchmarkClient {
    // Every client is given the same pool: the workload's connections to the host (64 but in
    // the scale workloads).
    let connectionsPerHost = workload.connections
    // Built once: the requests are the same every time, and building them is not the transport's cost.
    var request = URLRequest(url: url)
    if workload.postBytes > 0 {
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: UInt8(ascii: "x"), count: workload.postBytes)
    }
    switch name {
    case "none":
        // No client at all: what the driver itself (task group, child tasks) allocates and
        // costs per request, to subtract from the others' allocation counts.
        let size = workload.expectedBytes
        return BenchmarkClient(name: "harness only", fetch: { size }, shutdown: {})
    case "curl":
        let transport = try curlTransport(connections: connectionsPerHost)
        return courierClient("Courier curl", transport.networking, request) { await transport.shutdown() }
    case "curl-response":
        // The same transport without Foundation's HTTPURLResponse: its exchange, answering with
        // Courier's own head, through the same policies.
        return try curlResponseClient("curl, exchange", request, connections: connectionsPerHost, onTransportExecutor: false)
    case "curl-response-executor":
        // Both: no HTTPURLResponse, and the driver's tasks on the transport's own thread.
        return try curlResponseClient("curl, both", request, connections: connectionsPerHost, onTransportExecutor: true)
    case "curl-executor":
        // The Networking path, with the driver's tasks running on the transport's own thread.
        let transport = try curlTransport(connections: connectionsPerHost)
        var client = courierClient("curl, own executor", transport.networking, request) { await transport.shutdown() }
        client.executor = transport.executor
        return client
    case "curl-exchange":
        // The layered exchange alone, no APIClient: what the client adds is the difference.
        return try curlResponseClient("curl, exchange", request, connections: connectionsPerHost, onTransportExecutor: false)
    case "curl-apiclient":
        // What users call: APIClient over the transport's exchange, a Request<Data> per request
        // (a POST with the workload's body where it has one).
        let transport = try curlTransport(connections: connectionsPerHost)
        var client = apiClient("curl, APIClient", url: url, workload: workload, transport: transport, decoding: false) {
            await transport.shutdown()
        }
        client.holdOpen = heldRequest(transport, url: url)
        return client
    case "curl-apiclient-nometrics":
        // The same with CurlTransport.Configuration.recordsMetrics off: what reading libcurl's
        // metrics after every exchange costs is the difference.
        let transport = try curlTransport(connections: connectionsPerHost, recordsMetrics: false)
        return apiClient("curl, APIClient, no metrics", url: url, workload: workload, transport: transport, decoding: false) {
            await transport.shutdown()
        }
    case "curl-apiclient-json":
        // The same, decoding a small JSON object with JSONDecoder.
        let transport = try curlTransport(connections: connectionsPerHost)
        return apiClient("curl, APIClient JSON", url: url, workload: workload, transport: transport, decoding: true) {
            await transport.shutdown()
        }
    case "curl-stream":
        // The streaming API: chunks counted as they arrive, never collected.
        let transport = try curlTransport(connections: connectionsPerHost)
        return streamingClient("curl, streamed", transport.streaming, request) { await transport.shutdown() }
    case "curl-h2":
        let transport = try curlHTTP2Transport()
        return courierClient("Courier curl", transport.networking, request) { await transport.shutdown() }
    case "curl-h2-apiclient":
        // The h2 rows through what users call, for the targets.
        let transport = try curlHTTP2Transport()
        return apiClient("curl, APIClient", url: url, workload: workload, transport: transport, decoding: false) {
            await transport.shutdown()
        }
    case "curl-h3":
        // HTTP/3 only, on one QUIC connection (a build on a libcurl with HTTP/3: .build-h3).
        let transport = try curlHTTP3Transport()
        return courierClient("Courier curl", transport.networking, request) { await transport.shutdown() }
    case "curl-h3-apiclient":
        let transport = try curlHTTP3Transport()
        return apiClient("curl, APIClient", url: url, workload: workload, transport: transport, decoding: false) {
            await transport.shutdown()
        }
    case "ahc-h2":
        // AsyncHTTPClient's own HTTP/2 (its default, by ALPN), which multiplexes on one connection.
        var configuration = HTTPClient.Configuration(certificateVerification: .none)
        configuration.httpVersion = .automatic
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let sendable = ahcRequest(url, workload)
        return BenchmarkClient(
            name: "AsyncHTTPClient",
            fetch: {
                let response = try await client.execute(sendable, timeout: .seconds(60))
                let body = try await response.body.collect(upTo: 64 << 20)
                guard response.status == .ok else { throw BenchmarkError.status(Int(response.status.code)) }
                return body.readableBytes
            },
            shutdown: { try? await client.shutdown() }
        )
    case "urlsession":
        let transport = URLSessionTransport(configuration: .init(maximumConnectionsPerHost: connectionsPerHost))
        return courierClient("URLSession", transport.networking, request) { await transport.shutdown() }
    case "ahc", "ahc-json":
        let decodes = name == "ahc-json"
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connectionsPerHost)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let sendable = ahcRequest(url, workload)
        let slow = HTTPClientRequest(url: url.deletingLastPathComponent().appendingPathComponent("slow").absoluteString)
        return BenchmarkClient(
            name: decodes ? "AsyncHTTPClient JSON" : "AsyncHTTPClient",
            fetch: {
                let response = try await client.execute(sendable, timeout: .seconds(60))
                // The body is collected as AsyncHTTPClient hands it out (a ByteBuffer): its own
                // best case, no copy into Data.
                let body = try await response.body.collect(upTo: 64 << 20)
                guard response.status == .ok else { throw BenchmarkError.status(Int(response.status.code)) }
                if decodes {
                    // The usual way to decode AsyncHTTPClient's body: JSONDecoder over its bytes.
                    _ = try JSONDecoder().decode(Repository.self, from: Data(body.readableBytesView))
                }
                return body.readableBytes
            },
            shutdown: { try? await client.shutdown() },
            holdOpen: { _ = try await client.execute(slow, timeout: .seconds(600)) }
        )
    default:
        throw BenchmarkError.unknownClient(name)
    }
}

/// The workload's request for AsyncHTTPClient, built once as for the other clients.
private func ahcRequest(_ url: URL, _ workload: Workload) -> HTTPClientRequest {
    var request = HTTPClientRequest(url: url.absoluteString)
    if workload.postBytes > 0 {
        request.method = .POST
        request.body = .bytes(ByteBuffer(repeating: UInt8(ascii: "x"), count: workload.postBytes))
    }
    return request
}

private func curlTransport(connections: Int, recordsMetrics: Bool = true) throws -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.maximumConnectionsPerHost = connections
    configuration.recordsMetrics = recordsMetrics
    // `run --loops` measures the same client on 1, 2 and N event loops.
    if let loops = ProcessInfo.processInfo.environment["COURIER_BENCH_EVENT_LOOPS"].flatMap(Int.init) {
        configuration.eventLoopCount = loops
    }
    return try CurlTransport(configuration: configuration)
}

/// HTTP/2 by ALPN, every request on one connection; the certificate is nginx's self-signed one,
/// not verified, as for ahc-h2 (one handshake per process either way).
private func curlHTTP2Transport() throws -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.httpVersion = .automatic
    configuration.maximumConnectionsPerHost = 1
    configuration.maximumConcurrentStreamsPerConnection = http2StreamsPerConnection
    configuration.verifiesPeer = false
    if let loops = ProcessInfo.processInfo.environment["COURIER_BENCH_EVENT_LOOPS"].flatMap(Int.init) {
        configuration.eventLoopCount = loops
    }
    return try CurlTransport(configuration: configuration)
}

/// HTTP/3 only, every request on one QUIC connection, as the C program's h3 rows (3ONLY: no TCP
/// fallback to measure instead); the HTTP/3 server's certificate is self-signed, not verified.
private func curlHTTP3Transport() throws -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.httpVersion = .http3Only
    configuration.maximumConnectionsPerHost = 1
    configuration.maximumConcurrentStreamsPerConnection = http2StreamsPerConnection
    configuration.verifiesPeer = false
    return try CurlTransport(configuration: configuration)
}

private func curlResponseClient(_ name: String, _ request: URLRequest, connections: Int, onTransportExecutor: Bool) throws
    -> BenchmarkClient
{
    let transport = try curlTransport(connections: connections)
    let streaming = transport.streaming
    return BenchmarkClient(
        name: name,
        fetch: {
            // The public call that answers with Courier's head and no HTTPURLResponse: the
            // streamed one, read whole.
            let (body, head) = try await streaming(request, nil)
            guard head.statusCode == 200 else { throw BenchmarkError.status(head.statusCode) }
            return try await body.collect(upTo: 64 << 20).count
        },
        shutdown: { await transport.shutdown() },
        executor: onTransportExecutor ? transport.executor : nil,
        holdOpen: heldRequest(transport, url: request.url)
    )
}

/// A request to the `/slow` location beside `url`, which nginx answers one a minute.
private func heldRequest(_ transport: CurlTransport, url: URL?) -> (@Sendable () async throws -> Void)? {
    guard let slow = url.map({ $0.deletingLastPathComponent().appendingPathComponent("slow") }) else { return nil }
    let request = URLRequest(url: slow)
    let networking = transport.networking
    return { _ = try await networking(request) }
}

private func courierClient(
    _ name: String, _ networking: @escaping Networking, _ request: URLRequest, shutdown: @escaping @Sendable () async -> Void
) -> BenchmarkClient {
    BenchmarkClient(
        name: name,
        fetch: {
            let (data, response) = try await networking(request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200 else { throw BenchmarkError.status(status) }
            return data.count
        },
        shutdown: shutdown
    )
}

private func streamingClient(
    _ name: String, _ streaming: @escaping StreamingNetworking, _ request: URLRequest,
    shutdown: @escaping @Sendable () async -> Void
) -> BenchmarkClient {
    BenchmarkClient(
        name: name,
        fetch: {
            let (body, head) = try await streaming(request, nil)
            let status = head.statusCode
            guard status == 200 else { throw BenchmarkError.status(status) }
            var count = 0
            for try await chunk in body { count += chunk.count }
            return count
        },
        shutdown: shutdown
    )
}

/// The small JSON object the `json64` workload serves, as an API client would model it.
struct Repository: Decodable, Sendable {
    var id: Int
    var name: String
    var fullName: String
    var stars: Int
    var fork: Bool

    private enum CodingKeys: String, CodingKey {
        case id, name, fork
        case fullName = "full_name"
        case stars = "stargazers_count"
    }
}

private func apiClient(
    _ name: String, url: URL, workload: Workload, transport: some HTTPTransport, decoding: Bool,
    shutdown: @escaping @Sendable () async -> Void
) -> BenchmarkClient {
    let base = url.deletingLastPathComponent()
    let path = url.lastPathComponent
    let client = APIClient(baseURL: base, transport: transport)
    let expected = decoding ? jsonBody.utf8.count : 0
    // Built once, as for the other clients: the same bytes every time, as the others send.
    let method: HTTPMethod = workload.postBytes > 0
        ? .post(.data(Data(repeating: UInt8(ascii: "x"), count: workload.postBytes)))
        : .get()
    return BenchmarkClient(
        name: name,
        fetch: {
            if decoding {
                _ = try await client.send(Request<Repository>(path, method: method))
                return expected
            }
            return try await client.send(Request<Data>(path, method: method)).count
        },
        shutdown: shutdown
    )
}

/// What nginx answers at /json (Benchmarks/run writes the same bytes).
let jsonBody = #"{"id":42,"name":"courier","full_name":"example/courier","stargazers_count":1234,"fork":false}"#
