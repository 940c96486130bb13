#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

@Suite("CurlTransport.stream: bodies both ways, bounded by back-pressure")
struct CurlTransportStreamingTests {
    @Test func theHeadArrivesBeforeTheBodyAndTheBodyIsWhole() async throws {
        try await withCurlTransport { server, transport in
            let (body, response) = try await transport.stream(for: request(server.url("/stream-bytes/300000?chunk_size=7000")))
            #expect(response.statusCode == 200)
            var received = Data()
            var chunks = 0
            for try await chunk in body {
                received.append(chunk)
                chunks += 1
            }
            #expect(received == DeterministicBytes.data(count: 300_000, seed: 0))
            #expect(chunks > 1)
        }
    }

    /// A paused transfer still decodes what one read holds; past libcurl's 64 MiB for that, the
    /// body fails with a message about the bomb, not about header lines.
    @Test(.enabled(if: Curl.features.contentCodings.contains("zstd"), "the linked libcurl decodes zstd"))
    func aBombDecodedWhilePausedNamesLibcurlsPauseBuffer() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.maximumResponseBytes = .max
        try await withCurlTransport(configuration) { server, transport in
            let (body, _) = try await transport.stream(for: request(server.url("/bomb/zstd/10240")))
            var iterator = body.makeAsyncIterator()
            _ = try await iterator.next()
            try await Task.sleep(for: .milliseconds(300))
            await #expect {
                while try await iterator.next() != nil {}
            } throws: { error in
                guard let error = error as? URLError, error.code == .dataLengthExceedsMaximum else { return false }
                return error.localizedDescription.contains("holds for a paused transfer (64 MiB)")
            }
        }
    }

    @Test(.timeLimit(.minutes(5))) func theHeadIsReturnedWhileTheServerStillSends() async throws {
        try await withCurlTransport { server, transport in
            // 1,000 bytes of a declared 2,000, and then silence for ever: the body never ends,
            // and no timeout is near, so a `stream` that returned only once the body was whole
            // gives up at the hang limit instead of returning the head.
            var stalled = request(server.url("/stall/1000"))
            stalled.timeoutInterval = TestRun.serverHold / .seconds(1)
            let body = try await awaitWithin { [stalled] in try await transport.stream(for: stalled).0 }
            var iterator = body.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            #expect(!first.isEmpty && first == DeterministicBytes.data(count: first.count, seed: 0))
        }
    }

    @Test func aReaderThatFallsBehindPausesTheTransferAndLosesNothing() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.streamBufferSize = 64 << 10
        try await withCurlTransport(configuration) { server, transport in
            let size = 8 << 20
            let (body, _) = try await transport.stream(for: request(server.url("/bytes/\(size)")))
            // Nothing is read for now: the buffer fills and receiving pauses, far short of 8 MiB.
            try await awaitWithin {
                while transport.statistics.pausedByBackPressure == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            var received = Data()
            for try await chunk in body {
                received.append(chunk)
                // A reader slower than loopback: the transfer keeps pausing and resuming.
                if received.count < 1 << 20 { try await Task.sleep(for: .milliseconds(1)) }
            }
            #expect(received == DeterministicBytes.data(count: size, seed: 0))
            #expect(transport.statistics.running == 0)
        }
    }

    @Test func cancellingTheReaderEndsTheTransferAndFreesItsHandle() async throws {
        try await withCurlTransport { server, transport in
            let (body, _) = try await transport.stream(for: request(server.url("/infinite")))
            let reader = Task {
                var count = 0
                for try await chunk in body { count += chunk.count }
                return count
            }
            try await Task.sleep(for: .milliseconds(200))
            reader.cancel()
            await #expect {
                _ = try await reader.value
            } throws: { error in
                (error as? URLError)?.code == .cancelled
            }
            try await awaitWithin {
                while transport.statistics.running != 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            let statistics = transport.statistics
            #expect(statistics.idleHandles == statistics.liveHandles)
            // The connection is free for the next request.
            let (data, _) = try await transport.data(for: request(server.url("/bytes/10")))
            #expect(data.count == 10)
        }
    }

    @Test func droppingTheBodyEndsTheTransfer() async throws {
        try await withCurlTransport { server, transport in
            do {
                let (body, _) = try await transport.stream(for: request(server.url("/infinite")))
                var iterator = body.makeAsyncIterator()
                _ = try await iterator.next()
            }
            try await awaitWithin {
                while transport.statistics.running != 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(transport.statistics.idleHandles == transport.statistics.liveHandles)
        }
    }

    @Test func trailersAreThereOnceTheBodyEnds() async throws {
        try await withCurlTransport { server, transport in
            let (body, response) = try await transport.stream(for: request(server.url("/trailers")))
            #expect(response.value(forHTTPHeaderField: "X-Checksum") == nil)
            #expect(body.trailerFields.isEmpty)
            let data = try await body.collect(upTo: 1000)
            #expect(String(decoding: data, as: UTF8.self) == "hello world")
            #expect(body.trailerFields["X-Checksum"] == "5eb63bbe")
            #expect(body.trailerFields["X-Trailer-Count"] == "2")
        }
    }

    @Test func aBodyThatBreaksOffThrowsFromTheRead() async throws {
        try await withCurlTransport { server, transport in
            let (body, _) = try await transport.stream(for: request(server.url("/truncate/100000")))
            await #expect {
                _ = try await body.collect(upTo: 1 << 20)
            } throws: { error in
                (error as? URLError)?.code == .networkConnectionLost
            }
        }
    }

    @Test func anUploadWaitingForItsProducerDoesNotHoldUpOtherTransfers() async throws {
        try await withCurlTransport { server, transport in
            // The producer sends one piece, then waits until another request has completed on
            // the same transport: were the curl thread waiting for the producer, that request
            // would never complete and the test would time out.
            let (otherRequestDone, signal) = AsyncStream<Void>.makeStream()
            let chunks = AsyncStream<Data> { continuation in
                Task {
                    continuation.yield(Data("first ".utf8))
                    for await _ in otherRequestDone { break }
                    continuation.yield(Data("second".utf8))
                    continuation.finish()
                }
            }
            var upload = request(server.url("/anything"), method: "PUT")
            upload.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
            let uploading = Task { try await transport.stream(for: upload, uploading: .stream(chunks)) }
            let echo = try await awaitWithin {
                let (data, _) = try await transport.data(for: request(server.url("/bytes/10")))
                #expect(data.count == 10)
                signal.yield()
                let (body, _) = try await uploading.value
                return try JSONDecoder().decode(Echo.self, from: try await body.collect(upTo: 1 << 20))
            }
            #expect(echo.bodyText == "first second")
            #expect(echo.headers.contains { $0.name.lowercased() == "transfer-encoding" && $0.value == "chunked" })
        }
    }

    @Test func anUploadFromAFileSendsItsLength() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        let contents = DeterministicBytes.data(count: 200_000, seed: 0)
        try contents.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withCurlTransport { server, transport in
            let (body, _) = try await transport.stream(for: request(server.url("/anything"), method: "POST"), uploading: try .file(file))
            let echo = try JSONDecoder().decode(Echo.self, from: try await body.collect(upTo: 1 << 20))
            #expect(Data(base64Encoded: echo.body) == contents)
            #expect(echo.headers.first { $0.name.lowercased() == "content-length" }?.value == "200000")
        }
    }

    @Test func aContentLengthSetByHandIsCheckedAgainstTheUpload() async throws {
        try await withCurlTransport { server, transport in
            var matching = request(server.url("/anything"), method: "PUT", headers: ["Content-Length": "5"])
            let (body, _) = try await transport.stream(for: matching, uploading: .stream(UploadChunks([Data("hello".utf8)]), length: 5))
            let echo = try JSONDecoder().decode(Echo.self, from: try await body.collect(upTo: 1 << 20))
            #expect(echo.bodyText == "hello")
            matching.setValue("6", forHTTPHeaderField: "Content-Length")
            await #expect(throws: RequestError.self) {
                _ = try await transport.stream(for: matching, uploading: .data(Data("hello".utf8)))
            }
        }
    }

    @Test func aBlockingBodyStreamDoesNotBlockTheTransportsThread() async throws {
        let pipe = Pipe()
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        try await withCurlTransport { server, transport in
            var upload = request(server.url("/anything"), method: "POST")
            upload.httpBodyStream = InputStream(fileAtPath: path)
            let uploading = Task { try await transport.data(for: upload) }
            // The stream's read blocks until the pipe gets bytes; other requests go on meanwhile.
            let (data, _) = try await transport.data(for: request(server.url("/bytes/10")))
            #expect(data.count == 10)
            pipe.fileHandleForWriting.write(Data("streamed".utf8))
            try pipe.fileHandleForWriting.close()
            let (echoData, _) = try await uploading.value
            let echo = try JSONDecoder().decode(Echo.self, from: echoData)
            #expect(echo.bodyText == "streamed")
        }
    }

    @Test func shutdownReturnsOnceStreamsAreReleased() async throws {
        let server = try await TestServer.start()
        let transport = try CurlTransport()
        let (body, _) = try await transport.stream(for: request(server.url("/infinite")))
        await transport.shutdown()
        #expect(transport.statistics.isTerminated)
        await #expect(throws: CurlError.transportShutDown) {
            _ = try await body.collect(upTo: 1 << 30)
        }
        try await server.shutdown()
    }
}

/// Fixed chunks as an `AsyncSequence`.
private struct UploadChunks: AsyncSequence, Sendable {
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
