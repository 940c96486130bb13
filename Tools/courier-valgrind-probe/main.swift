#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierCurl
import CourierTestServer
import Dispatch
import Foundation

// Drives CurlTransport through every path that touches libcurl memory (GETs, bodies, gzip,
// redirects, cancellation, timeouts, refused connections, size limits, shutdown with requests in
// flight, transports created and released, streaming both ways with pauses) against the test
// server, for valgrind.
//
// The server runs in another process, so that memcheck judges the client alone: SwiftNIO's
// HTTP parser (llhttp) branches on bytes memcheck considers uninitialised, hundreds of times a
// run, which says nothing about Courier. scripts/valgrind-probe starts
// `courier-valgrind-probe --serve` natively, which prints the server's base URL and a refusing
// port's on two lines and serves until stdin ends, then runs
// `courier-valgrind-probe BASE REFUSING` under valgrind. With no arguments the probe starts both
// in process, for a run without valgrind.
//
// The main thread must stay synchronous: valgrind 3.19 crashes when the main thread parks in
// libdispatch's `sigsuspend`, which an async `main` does. So main blocks on a semaphore while a
// detached task does the work. Exit status 0 = every request ended as expected.
//
//     swift build --product courier-valgrind-probe
//     scripts/valgrind-probe

/// Hands the async result back to the synchronous main thread. The semaphore orders the write
/// before the read.
final class Outcome: @unchecked Sendable {
    var failures: [String] = []
    var requests = 0
}

/// A server's base URL, without a trailing slash.
struct Server: Sendable {
    let baseURL: URL

    func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery) ?? baseURL
    }
}

/// Counts what one scenario produced; only the detached task touches it.
struct Tally {
    var failures: [String] = []
    var requests = 0

    mutating func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
        requests += 1
        if !condition { failures.append(what()) }
    }
}

func get(_ url: URL, timeout: TimeInterval = 60) -> URLRequest {
    var request = URLRequest(url: url)
    request.timeoutInterval = timeout
    return request
}

func post(_ url: URL, body: Data, method: String = "POST") -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    return request
}

/// Status and body of one exchange, or the error it threw.
func send(_ transport: CurlTransport, _ request: URLRequest) async -> Result<(Int, Data), any Error> {
    do {
        let (data, response) = try await transport.data(for: request)
        guard let http = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        return .success((http.statusCode, data))
    } catch {
        return .failure(error)
    }
}

func isURLError(_ result: Result<(Int, Data), any Error>, _ code: URLError.Code) -> Bool {
    if case .failure(let error as URLError) = result { return error.code == code }
    return false
}

func isShutDown(_ result: Result<(Int, Data), any Error>) -> Bool {
    if case .failure(let error as CurlError) = result { return error.kind == .shutDown }
    return false
}

func describe(_ result: Result<(Int, Data), any Error>) -> String {
    switch result {
    case .success(let (status, data)): "status \(status), \(data.count) bytes"
    case .failure(let error): "\(error)"
    }
}

/// Sends `requests` with at most `width` in flight and returns the results in order.
func sendAll(_ transport: CurlTransport, _ requests: [URLRequest], width: Int) async -> [Result<(Int, Data), any Error>] {
    await withTaskGroup(of: (Int, Result<(Int, Data), any Error>).self) { group in
        var results = [Result<(Int, Data), any Error>](repeating: .failure(URLError(.unknown)), count: requests.count)
        var next = 0
        while next < min(width, requests.count) {
            let index = next
            group.addTask { (index, await send(transport, requests[index])) }
            next += 1
        }
        for await (index, result) in group {
            results[index] = result
            if next < requests.count {
                let index = next
                group.addTask { (index, await send(transport, requests[index])) }
                next += 1
            }
        }
        return results
    }
}

/// Prints how long each phase took, so a slow or stuck phase under valgrind is easy to spot.
struct PhaseClock {
    private var last = ContinuousClock.now

    mutating func lap(_ name: String) {
        let now = ContinuousClock.now
        FileHandle.standardError.write(Data("phase \(name): \(last.duration(to: now))\n".utf8))
        last = now
    }
}

func run(server: Server, refusing: Server) async throws -> Tally {
    var tally = Tally()
    var clock = PhaseClock()
    let transport = try CurlTransport()

    // Small GETs of every size from 0 to 199 bytes, 16 in flight, checked byte for byte.
    let sizes = Array(0..<200)
    let gets = await sendAll(transport, sizes.map { get(server.url("/bytes/\($0)")) }, width: 16)
    for (size, result) in zip(sizes, gets) {
        let ok = (try? result.get()).map { $0.0 == 200 && $0.1 == TestServer.deterministicBytes(count: size) } ?? false
        tally.expect(ok, "GET /bytes/\(size): \(describe(result))")
    }

    clock.lap("gets")

    // A large body written in many callbacks, and one streamed without Content-Length.
    for path in ["/bytes/1048576", "/stream-bytes/300000?chunk_size=777"] {
        let result = await send(transport, get(server.url(path)))
        let count = path.hasPrefix("/bytes") ? 1_048_576 : 300_000
        tally.expect((try? result.get())?.1.count == count, "GET \(path): \(describe(result))")
    }

    clock.lap("large bodies")

    // Request bodies from 0 bytes to 256 KiB, several methods; the echo must carry them back.
    let bodySizes = [0, 1, 100, 4096, 65_537, 262_144]
    let methods = ["POST", "PUT", "PATCH", "DELETE"]
    var posts: [URLRequest] = []
    for size in bodySizes {
        for method in methods {
            posts.append(post(server.url("/anything"), body: TestServer.deterministicBytes(count: size, seed: 7), method: method))
        }
    }
    for (request, result) in zip(posts, await sendAll(transport, posts, width: 8)) {
        let echo = (try? result.get()).flatMap { try? JSONDecoder().decode(Echo.self, from: $0.1) }
        tally.expect(echo?.method == request.httpMethod, "\(request.httpMethod ?? "?") body: \(describe(result))")
    }

    clock.lap("posts")

    // Compressed bodies and redirect chains.
    let mixed = (0..<20).map { get(server.url($0.isMultiple(of: 2) ? "/gzip" : "/deflate")) }
        + (0..<20).map { get(server.url($0.isMultiple(of: 2) ? "/redirect/3" : "/absolute-redirect/2")) }
        + [post(server.url("/redirect-to?url=/anything&status_code=307"), body: Data("keep".utf8))]
    for (request, result) in zip(mixed, await sendAll(transport, mixed, width: 8)) {
        let echo = (try? result.get()).flatMap { try? JSONDecoder().decode(Echo.self, from: $0.1) }
        tally.expect(echo != nil, "\(request.url?.path ?? "?"): \(describe(result))")
    }
    let loop = await send(transport, get(server.url("/redirect/30")))
    tally.expect(isURLError(loop, .httpTooManyRedirects), "redirect loop: \(describe(loop))")
    let toFile = await send(transport, get(server.url("/redirect-to?url=file%3A%2F%2F%2Fetc%2Fpasswd")))
    tally.expect((try? toFile.get())?.0 == 302 || isURLError(toFile, .unsupportedURL), "redirect to file: \(describe(toFile))")

    clock.lap("gzip+redirects")

    // Cancellation: one request, then 50 at once, all while the server is still delaying.
    let single = Task { await send(transport, get(server.url("/delay/5"))) }
    try await Task.sleep(for: .milliseconds(300))
    single.cancel()
    let cancelled = await single.value
    tally.expect(isURLError(cancelled, .cancelled), "cancel: \(describe(cancelled))")
    let many = (0..<50).map { _ in Task { await send(transport, get(server.url("/delay/5"))) } }
    try await Task.sleep(for: .milliseconds(500))
    for task in many { task.cancel() }
    for task in many {
        let result = await task.value
        tally.expect(isURLError(result, .cancelled), "cancel many: \(describe(result))")
    }

    clock.lap("cancellation")

    // Idle timeout, a truncated body, and the size limits.
    let timedOut = await send(transport, get(server.url("/delay/4"), timeout: 1))
    tally.expect(isURLError(timedOut, .timedOut), "timeout: \(describe(timedOut))")
    let truncated = await send(transport, get(server.url("/truncate/2000")))
    tally.expect(isURLError(truncated, .networkConnectionLost), "truncate: \(describe(truncated))")
    var small = CurlTransport.Configuration()
    small.policies.maximumResponseBytes = 1000
    small.policies.maximumHeaderBytes = 2000
    let limited = try CurlTransport(configuration: small)
    let tooLarge = await send(limited, get(server.url("/stream-bytes/5000?chunk_size=100")))
    tally.expect(isURLError(tooLarge, .dataLengthExceedsMaximum), "size limit: \(describe(tooLarge))")
    let longHeader = String(repeating: "x", count: 3000)
    let tooManyHeaders = await send(limited, get(server.url("/response-headers?X-Long=\(longHeader)")))
    tally.expect(isURLError(tooManyHeaders, .dataLengthExceedsMaximum), "header limit: \(describe(tooManyHeaders))")
    await limited.shutdown()

    clock.lap("timeout+limits")

    // A refused connection.
    let refused = await send(transport, get(refusing.url("/get")))
    tally.expect(isURLError(refused, .cannotConnectToHost), "refused: \(describe(refused))")

    clock.lap("refused")

    // Shutdown with 20 requests in flight: each fails with transportShutDown, none hangs.
    let doomed = try CurlTransport()
    let inFlight = (0..<20).map { _ in Task { await send(doomed, get(server.url("/delay/5"))) } }
    try await Task.sleep(for: .milliseconds(500))
    await doomed.shutdown()
    for task in inFlight {
        let result = await task.value
        tally.expect(isShutDown(result), "shutdown in flight: \(describe(result))")
    }
    let afterShutdown = await send(doomed, get(server.url("/get")))
    tally.expect(isShutDown(afterShutdown), "after shutdown: \(describe(afterShutdown))")

    clock.lap("shutdown in flight")

    // Transports created, used and released in a loop; some released without shutdown().
    for round in 0..<10 {
        let shortLived = try CurlTransport()
        let results = await sendAll(shortLived, (0..<5).map { get(server.url("/bytes/\($0 * 13)")) }, width: 5)
        for result in results {
            tally.expect((try? result.get())?.0 == 200, "short-lived transport \(round): \(describe(result))")
        }
        if round.isMultiple(of: 2) { await shortLived.shutdown() }
    }

    clock.lap("transports loop")

    try await streamingPhase(server: server, tally: &tally)

    clock.lap("streaming")

    // Returns once the transport's thread has released everything, so the leak report sees
    // the end state, not a thread mid-cleanup.
    await transport.shutdown()
    return tally
}

/// Streamed bodies both ways, on a transport whose readers' buffers are small, so libcurl pauses
/// and resumes transfers: a body read slower than it arrives, trailers, a body dropped mid-way,
/// uploads from an `AsyncSequence`, an `InputStream` and a file, and a download to a file.
func streamingPhase(server: Server, tally: inout Tally) async throws {
    var configuration = CurlTransport.Configuration()
    configuration.streamBufferSize = 64 * 1024
    let transport = try CurlTransport(configuration: configuration)
    let size = 2 * 1_048_576

    do {
        let (body, _) = try await transport.stream(for: get(server.url("/bytes/\(size)")))
        var received = Data()
        for try await chunk in body {
            received.append(chunk)
            // Slower than loopback for the first half: the buffer fills and the transfer pauses.
            if received.count < size / 2 { try await Task.sleep(for: .milliseconds(2)) }
        }
        tally.expect(received == TestServer.deterministicBytes(count: size), "slow reader: \(received.count) bytes")
    } catch {
        tally.expect(false, "slow reader: \(error)")
    }

    do {
        let (body, _) = try await transport.stream(for: get(server.url("/trailers")))
        let text = try await body.collect(upTo: 1000)
        tally.expect(
            text == Data("hello world".utf8) && body.trailerFields["X-Checksum"] == "5eb63bbe",
            "trailers: \(text.count) bytes, \(body.trailerFields)"
        )
    } catch {
        tally.expect(false, "trailers: \(error)")
    }

    // Dropped after its first chunk: the transfer of a 1 GiB body must end, not run on.
    for round in 0..<5 {
        do {
            let (body, _) = try await transport.stream(for: get(server.url("/zeros/1073741824")))
            var iterator = body.makeAsyncIterator()
            let first = try await iterator.next()
            tally.expect(first?.isEmpty == false, "dropped body \(round): no first chunk")
        } catch {
            tally.expect(false, "dropped body \(round): \(error)")
        }
    }

    let pieces = (0..<40).map { TestServer.deterministicBytes(count: 16_384, seed: UInt64($0)) }
    let chunks = AsyncStream<Data> { continuation in
        for piece in pieces { continuation.yield(piece) }
        continuation.finish()
    }
    let sinkBytes = { (data: Data) in (try? JSONDecoder().decode([String: Int].self, from: data))?["bytes"] }
    do {
        let (body, _) = try await transport.stream(for: post(server.url("/sink"), body: Data()), uploading: .stream(chunks))
        let answer = try await body.collect(upTo: 10_000)
        tally.expect(sinkBytes(answer) == 40 * 16_384, "upload from a sequence: \(String(decoding: answer, as: UTF8.self))")
    } catch {
        tally.expect(false, "upload from a sequence: \(error)")
    }

    do {
        var request = URLRequest(url: server.url("/sink"))
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: TestServer.deterministicBytes(count: 300_000))
        let (answer, _) = try await transport.data(for: request)
        tally.expect(sinkBytes(answer) == 300_000, "upload from an InputStream: \(String(decoding: answer, as: UTF8.self))")
    } catch {
        tally.expect(false, "upload from an InputStream: \(error)")
    }

    let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-valgrind-probe-\(getpid())")
    defer { try? FileManager.default.removeItem(at: file) }
    do {
        try TestServer.deterministicBytes(count: size).write(to: file)
        let (answer, _) = try await transport.upload(for: post(server.url("/sink"), body: Data()), fromFile: file)
        tally.expect(sinkBytes(answer) == size, "upload from a file: \(String(decoding: answer, as: UTF8.self))")
    } catch {
        tally.expect(false, "upload from a file: \(error)")
    }

    do {
        let (downloaded, _) = try await transport.download(for: get(server.url("/bytes/\(size)")))
        defer { try? FileManager.default.removeItem(at: downloaded) }
        let written = try Data(contentsOf: downloaded)
        tally.expect(written == TestServer.deterministicBytes(count: size), "download: \(written.count) bytes")
    } catch {
        tally.expect(false, "download: \(error)")
    }

    await transport.shutdown()
}

/// Runs the requests against the servers `arguments` name, or against servers started in this
/// process when it names none.
func probe(_ arguments: [String]) async throws -> Tally {
    if arguments.count == 2, let base = URL(string: arguments[0]), let refusing = URL(string: arguments[1]) {
        return try await run(server: Server(baseURL: base), refusing: Server(baseURL: refusing))
    }
    guard arguments.isEmpty else {
        throw ProbeUsageError(description: "usage: courier-valgrind-probe [--serve | BASE_URL REFUSING_URL]")
    }
    let server = try await TestServer.start()
    let refusing = try await RefusingPort.open()
    let tally = try await run(server: Server(baseURL: server.baseURL), refusing: Server(baseURL: refusing.baseURL))
    try await refusing.close()
    try await server.shutdown()
    return tally
}

/// Serves a probe in another process: prints the two base URLs, then serves until stdin ends.
func serve() async throws {
    let server = try await TestServer.start()
    let refusing = try await RefusingPort.open()
    FileHandle.standardOutput.write(Data("\(server.baseURL.absoluteString)\n\(refusing.baseURL.absoluteString)\n".utf8))
    await Task.detached {
        while !FileHandle.standardInput.availableData.isEmpty {}
    }.value
    try await refusing.close()
    try await server.shutdown()
}

struct ProbeUsageError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` on a detached task and blocks the calling (main) thread on a semaphore until it
/// ends; nonisolated so the detached task shares nothing with the main actor.
func runBlocking(_ body: @escaping @Sendable () async throws -> Tally) -> Outcome {
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            let tally = try await body()
            outcome.failures = tally.failures
            outcome.requests = tally.requests
        } catch {
            outcome.failures = ["setup failed: \(error)"]
        }
        done.signal()
    }
    done.wait()
    return outcome
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--serve"] {
    let served = runBlocking {
        try await serve()
        return Tally()
    }
    for failure in served.failures {
        FileHandle.standardError.write(Data("courier-valgrind-probe --serve: \(failure)\n".utf8))
    }
    exit(served.failures.isEmpty ? 0 : 1)
}
let outcome = runBlocking { try await probe(arguments) }
for failure in outcome.failures {
    print("UNEXPECTED: \(failure)")
}
print("courier-valgrind-probe: \(outcome.requests) requests, \(outcome.failures.count) unexpected")
exit(outcome.failures.isEmpty ? 0 : 2)
