#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierParity
import CourierTestServer
import Foundation

/// Sends a case through both transports and judges the result against its known differences.
enum ParityRunner {
    /// Runs `parityCase` on URLSession, then on curl, recording what the server received each time.
    static func run(_ parityCase: ParityCase, on servers: ParityServers, sharedCurl: ParityTransport) async throws -> ParityRun {
        let request = try parityCase.request.urlRequest(on: servers).unwrapped(orThrow: "\(parityCase.name): not a URL")
        let server = servers.server(parityCase.receivedBy)
        let ownCurl = parityCase.needsOwnCurlTransport ? try CurlTransport() : nil
        let own = try parityCase.ownPolicies.map(OwnParityTransports.init)
        let curlTransport = own?.curl ?? ownCurl?.parityTransport ?? sharedCurl
        let refusedRequest = URLRequest(url: servers.refusing.baseURL)
        let primers = try (parityCase.primedBy ?? []).map { try $0.urlRequest(on: servers).unwrapped(orThrow: "\(parityCase.name): not a URL") }
        let (urlSession, fromURLSession) = await exchange(
            request, parityCase.action, own?.urlSession ?? ParityTransports.urlSession, server, refusedRequest: refusedRequest,
            primers: primers
        )
        // Built again: a body stream is spent by the first exchange.
        let curlRequest = try parityCase.request.urlRequest(on: servers).unwrapped(orThrow: "\(parityCase.name): not a URL")
        let (curl, fromCurl) = await exchange(
            curlRequest, parityCase.action, curlTransport, server, refusedRequest: refusedRequest, primers: primers
        )
        await ownCurl?.shutdown()
        await own?.shutdown()
        return ParityRun(
            urlSession: EchoBodyNormalisation.normalised(urlSession),
            curl: EchoBodyNormalisation.normalised(curl),
            receivedFromURLSession: fromURLSession,
            receivedFromCurl: fromCurl
        )
    }

    /// What is wrong with `run`: differences nobody recorded, and recorded ones that no longer occur.
    static func problems(in run: ParityRun, for parityCase: ParityCase) -> [String] {
        let differences = run.differences(comparing: parityCase.compared)
        let knownFields = Set(parityCase.knownDifferences.map(\.field))
        let unexpected = differences.filter { !knownFields.contains($0.field) }.map { "differs: \($0)" }
        let vanished = parityCase.knownDifferences
            .filter { known in !differences.contains { $0.field == known.field } }
            .map { "recorded difference no longer occurs, remove it: \($0.field) (\($0.reason))" }
        return unexpected + vanished
    }

    private static func exchange(
        _ request: URLRequest, _ action: ParityCase.Action, _ transport: ParityTransport, _ server: TestServer,
        refusedRequest: URLRequest, primers: [URLRequest] = []
    ) async -> (ExchangeOutcome, ReceivedRequest?) {
        // A `/flaky` or `/cache` route counts per key: each transport starts from the first visit.
        if let key = Self.countedKey(of: request) { server.forgetVisits(key) }
        let networking = transport.networking
        for primer in primers { _ = await ExchangeOutcome(sending: primer, through: networking) }
        let countBefore = server.requestCount
        let outcome: ExchangeOutcome
        switch action {
        case .stream(let readDelay):
            outcome = await ExchangeOutcome(streaming: request, through: transport.streaming, readDelay: readDelay)
        case .streamUpload(let chunkSize, let declaresLength):
            var bare = request
            bare.httpBody = nil
            let body = request.httpBody ?? Data()
            let chunks = stride(from: 0, to: body.count, by: chunkSize).map { Data(body[$0..<min($0 + chunkSize, body.count)]) }
            let upload = RequestBody.stream(UploadChunks(chunks), length: declaresLength ? Int64(body.count) : nil)
            outcome = await ExchangeOutcome(streaming: bare, through: transport.streaming, uploading: upload)
        case .upload(let source):
            outcome = await Self.uploaded(request, from: source, through: transport.streaming)
        case .cancelStream(let afterBytes):
            outcome = await Self.cancelledStream(request, through: transport.streaming, afterBytes: afterBytes)
        case .send:
            outcome = await ExchangeOutcome(sending: request, through: networking)
        case .cancel(let delay):
            let task = Task { await ExchangeOutcome(sending: request, through: networking) }
            try? await Task.sleep(for: delay)
            task.cancel()
            outcome = await task.value
        case .sendAfterRefusedConnection:
            _ = await ExchangeOutcome(sending: refusedRequest, through: networking)
            outcome = await ExchangeOutcome(sending: request, through: networking)
        }
        // Only a request that arrived during this exchange counts; `lastRequest` may be older.
        let received = server.requestCount > countBefore ? server.lastRequest.map(ReceivedRequest.init) : nil
        return (outcome, received)
    }
}

extension ParityRunner {
    /// The key a `/flaky/{key}/{failures}` or `/cache/{key}` request is counted under.
    fileprivate static func countedKey(of request: URLRequest) -> String? {
        let parts = request.url?.pathComponents ?? []
        if parts.count == 4 && parts[1] == "flaky" { return parts[2] }
        if parts.count == 3 && parts[1] == "cache" { return "cache-" + parts[2] }
        return nil
    }

    /// Sends `request`'s body as an upload of `source`'s kind, in place of the request's own.
    fileprivate static func uploaded(
        _ request: URLRequest, from source: ParityCase.UploadSource, through streaming: @escaping StreamingNetworking
    ) async -> ExchangeOutcome {
        var bare = request
        bare.httpBody = nil
        let bytes = request.httpBody ?? Data()
        switch source {
        case .data:
            return await ExchangeOutcome(streaming: bare, through: streaming, uploading: .data(bytes))
        case .file:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-parity-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            do {
                try bytes.write(to: file)
                return await ExchangeOutcome(streaming: bare, through: streaming, uploading: try .file(file))
            } catch {
                return .failure(ExchangeFailure(error))
            }
        }
    }

    /// Reads a streamed body until `afterBytes` arrived, then cancels the reading task: the
    /// outcome is the error the read throws.
    fileprivate static func cancelledStream(
        _ request: URLRequest, through streaming: @escaping StreamingNetworking, afterBytes: Int
    ) async -> ExchangeOutcome {
        do {
            let (body, _) = try await streaming(request, nil)
            let reader = Task {
                var count = 0
                for try await chunk in body {
                    count += chunk.count
                    if count >= afterBytes { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            try await reader.value
            return .failure(.other("the body ended before it was cancelled"))
        } catch {
            return .failure(ExchangeFailure(error))
        }
    }
}

/// Fixed chunks as an `AsyncSequence`, for streamed uploads.
struct UploadChunks: AsyncSequence, Sendable {
    let chunks: [Data]

    init(_ chunks: [Data]) {
        self.chunks = chunks
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(remaining: chunks[...])
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Data>

        mutating func next() async -> Data? {
            remaining.popFirst()
        }
    }
}

extension ReceivedRequest {
    init(_ recorded: RecordedRequest) {
        self.init(
            method: recorded.method,
            target: recorded.uri,
            headers: HeaderFields(recorded.headers.map { (name: $0.name, value: $0.value) }),
            body: recorded.body
        )
    }
}

/// A case whose request cannot be built: a mistake in the catalogue, reported as a test failure.
struct CatalogueError: Error, CustomStringConvertible {
    var description: String
}

extension Optional {
    func unwrapped(orThrow message: String) throws -> Wrapped {
        guard let self else { throw CatalogueError(description: message) }
        return self
    }
}
