#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// HTTP/3 against hypercorn on loopback, on a libcurl built with it (scripts/test-http3).
@Suite("CurlTransport over HTTP/3", .enabled(if: libcurlHasHTTP3, "the linked libcurl has no HTTP/3; scripts/test-http3 runs these on one that has"))
struct CurlTransportHTTP3Tests {
    @Test func aGETWithHTTP3OnlyIsAnsweredOverHTTP3() async throws {
        try await withHTTP3Server { server, files in
            let transport = try makeTransport(.http3Only, files: files)
            let (view, head) = try await transport.get(server.url("/get"))
            #expect(head.statusCode == 200)
            #expect(head.httpVersion == .http3)
            #expect(head.httpVersion.description == "HTTP/3")
            #expect(view.httpVersion == "3")
            #expect(port(of: head.metrics.remoteAddress) == server.port)
            await transport.shutdown()
        }
    }

    @Test func theHTTP3PreferenceSpeaksHTTP3WhereTheServerAnswersOnUDP() async throws {
        try await withHTTP3Server { server, files in
            let transport = try makeTransport(.http3, files: files)
            let (view, head) = try await transport.get(server.url("/get"))
            #expect(head.httpVersion == .http3)
            #expect(view.httpVersion == "3")
            await transport.shutdown()
        }
    }

    /// 1 MiB each way over one HTTP/3 stream, byte for byte.
    @Test func aOneMebibytePOSTGoesAndComesBackWhole() async throws {
        try await withHTTP3Server { server, files in
            let transport = try makeTransport(.http3Only, files: files)
            let body = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
            var request = URLRequest(url: server.url("/echo"))
            request.httpMethod = "POST"
            request.httpBody = body
            let (data, head) = try await transport.exchange(request)
            #expect(head.statusCode == 200)
            #expect(head.httpVersion == .http3)
            #expect(head.headerFields["X-HTTP-Version"] == "3")
            #expect(data.count == body.count)
            #expect(data == body)
            await transport.shutdown()
        }
    }

    /// 64 requests in flight at once share one QUIC connection: libcurl opened one and reused it
    /// 63 times, from one local UDP port, and the server saw a single client address.
    @Test func sixtyFourRequestsInFlightShareOneQUICConnection() async throws {
        try await withHTTP3Server { server, files in
            let transport = try makeTransport(.http3Only, files: files)
            let answers = try await withThrowingTaskGroup(of: (ServerView, ResponseHead).self) { group in
                for index in 0..<64 {
                    group.addTask { try await transport.get(server.url("/get?delay=0.3&i=\(index)")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let heads = answers.map(\.1)
            #expect(answers.count == 64)
            #expect(heads.allSatisfy { $0.statusCode == 200 && $0.httpVersion == .http3 })
            #expect(heads.count { $0.metrics.connectionReused == false } == 1)
            #expect(heads.count { $0.metrics.connectionReused == true } == 63)
            #expect(Set(heads.compactMap(\.metrics.localAddress)).count == 1)
            let clients = Set(answers.map(\.0.client))
            #expect(clients.count == 1, "the server saw clients \(clients)")
            await transport.shutdown()
        }
    }

    // MARK: Fallback

    /// Nothing answers on UDP: the preference falls back to TCP and is answered there, as
    /// curl's `--http3` does; HTTP/3 only fails, with a typed error that says what happened.
    @Test func withNothingOnUDPThePreferenceFallsBackAndHTTP3OnlyFails() async throws {
        try await withHTTP3Server(quic: .none) { server, files in
            let preferring = try makeTransport(.http3, files: files)
            let (view, head) = try await preferring.get(server.url("/get"))
            #expect(head.statusCode == 200)
            #expect(head.httpVersion == .http2)
            #expect(view.httpVersion == "2")
            await preferring.shutdown()

            let only = try makeTransport(.http3Only, files: files)
            await #expect {
                _ = try await only.get(server.url("/get"))
            } throws: { error in
                guard let error = error as? URLError else { return false }
                let text = String(describing: error)
                return error.code == .cannotConnectToHost && text.contains("127.0.0.1:\(server.port)")
            }
            await only.shutdown()
        }
    }

    // MARK: Alt-Svc

    /// QUIC listens on a port only the Alt-Svc answer names. The first request finds nothing on
    /// UDP at the URL's port and is answered over HTTP/2 with that answer; with an in-memory
    /// cache every later request, on new handles and at once, goes to the announced port over
    /// HTTP/3. Without a cache they all stay on HTTP/2.
    @Test(arguments: [CurlTransport.AltSvcCache.inMemory, .off])
    func anAltSvcAnswerMovesLaterRequestsToHTTP3(cache: CurlTransport.AltSvcCache) async throws {
        try await withHTTP3Server(quic: .separatePort) { server, files in
            let transport = try makeTransport(.http3, files: files) { $0.altSvcCache = cache }
            let (first, firstHead) = try await transport.get(server.url("/get"))
            #expect(first.httpVersion == "2")
            let announced = try #require(firstHead.headerFields["Alt-Svc"]).split(separator: "\"")[1].dropFirst()
            let quicPort = try #require(Int(announced))
            #expect(quicPort != server.port)

            let later = try await withThrowingTaskGroup(of: (ServerView, ResponseHead).self) { group in
                for index in 0..<8 {
                    group.addTask { try await transport.get(server.url("/get?delay=0.2&i=\(index)")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            if cache == .off {
                #expect(later.allSatisfy { $0.0.httpVersion == "2" && $0.1.httpVersion == .http2 })
            } else {
                #expect(later.allSatisfy { $0.0.httpVersion == "3" && $0.1.httpVersion == .http3 })
                #expect(later.allSatisfy { port(of: $0.1.metrics.remoteAddress) == quicPort })
            }
            await transport.shutdown()
        }
    }

    /// A cache file outlives the transport, in curl's format: a new transport reading it speaks
    /// HTTP/3 from its first request, and curl's `--alt-svc` could read it too.
    @Test func anAltSvcCacheFileCarriesTheAnswerToTheNextTransport() async throws {
        try await withHTTP3Server(quic: .separatePort) { server, files in
            let path = files.directory.appendingPathComponent("alt-svc.txt").path
            let first = try makeTransport(.http3, files: files) { $0.altSvcCache = .file(path) }
            let (view, _) = try await first.get(server.url("/get"))
            #expect(view.httpVersion == "2")
            await first.shutdown()

            let text = try String(contentsOfFile: path, encoding: .utf8)
            let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            #expect(entries.contains { $0.hasPrefix("h2 127.0.0.1 \(server.port) h3 127.0.0.1 ") }, "the file holds \(text)")

            let next = try makeTransport(.http3, files: files) { $0.altSvcCache = .file(path) }
            let (again, head) = try await next.get(server.url("/get"))
            #expect(again.httpVersion == "3")
            #expect(head.httpVersion == .http3)
            await next.shutdown()
        }
    }

    /// The in-memory cache is a private file, owner only, which the answer reached, and which
    /// is gone once the transport has shut down.
    @Test func theInMemoryCacheLeavesNoFileBehind() async throws {
        try await withHTTP3Server(quic: .separatePort) { server, files in
            var directory: String?
            do {
                let transport = try makeTransport(.http3, files: files) { $0.altSvcCache = .inMemory }
                let path = try #require(transport.altSvcCacheFilePath)
                directory = (path as NSString).deletingLastPathComponent
                _ = try await transport.get(server.url("/get"))
                let text = try String(contentsOfFile: path, encoding: .utf8)
                #expect(text.contains("h2 127.0.0.1 \(server.port) h3 127.0.0.1 "), "the file holds \(text)")
                let attributes = try FileManager.default.attributesOfItem(atPath: try #require(directory))
                #expect((attributes[.posixPermissions] as? Int) == 0o700)
                await transport.shutdown()
            }
            #expect(!FileManager.default.fileExists(atPath: try #require(directory)))
        }
    }
}
