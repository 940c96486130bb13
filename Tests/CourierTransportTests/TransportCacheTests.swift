#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// The cache (``Policies/cache``) over both engines against `/cache/{key}`, which counts its
/// visits and answers preconditions: the same hits, revalidations, variants and invalidations
/// whichever engine goes to the network.
@Suite(.testServer) struct TransportCacheTests {
    private static func policies(_ cache: HTTPCache) -> Policies {
        var policies = Policies()
        policies.cache = cache
        return policies
    }

    private static func key() -> String { UUID().uuidString }

    @Test(arguments: TransportKind.configured)
    func aFreshResponseIsAnsweredFromTheCacheWithItsAge(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let url = server.url("/cache/\(key)?cc=max-age%3D600")
        try await transport.withRetryingTransport(policies: Self.policies(HTTPCache())) { client in
            let (first, firstHead) = try await client.exchange(URLRequest(url: url))
            let (second, secondHead) = try await client.exchange(URLRequest(url: url))
            #expect(firstHead.metrics.source == .network)
            #expect(secondHead.metrics.source == .cache)
            #expect(second == first)
            #expect(String(decoding: second, as: UTF8.self) == "visit 1 of \(key)")
            #expect(secondHead.headerFields["Age"].flatMap(Int.init) != nil)
            #expect(secondHead.headerFields["X-Visit"] == "1")
            #expect(secondHead.statusCode == 200)
        }
        #expect(server.visits("cache-" + key) == 1)
    }

    @Test(arguments: TransportKind.configured)
    func aStaleResponseIsRevalidatedAndA304AnswersWithTheStoredBody(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let url = server.url("/cache/\(key)?etag=v1&last_modified=1")
        try await transport.withRetryingTransport(policies: Self.policies(HTTPCache())) { client in
            _ = try await client.exchange(URLRequest(url: url))
            let (body, head) = try await client.exchange(URLRequest(url: url))
            #expect(head.metrics.source == .revalidated)
            #expect(head.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self) == "visit 1 of \(key)")
            // The 304's fields replaced the stored ones.
            #expect(head.headerFields["X-Visit"] == "2")
            #expect(head.headerFields["ETag"] == "\"v1\"")
            #expect(head.headerFields["X-Seen-If-None-Match"] == "\"v1\"")
            #expect(head.headerFields["X-Seen-If-Modified-Since"] != nil)
        }
        #expect(server.visits("cache-" + key) == 2)
    }

    @Test(arguments: TransportKind.configured)
    func aChangedRepresentationReplacesTheStoredOne(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let url = server.url("/cache/\(key)?etag=v&changes=1")
        try await transport.withRetryingTransport(policies: Self.policies(HTTPCache())) { client in
            _ = try await client.exchange(URLRequest(url: url))
            let (changed, changedHead) = try await client.exchange(URLRequest(url: url))
            #expect(changedHead.metrics.source == .network)
            #expect(String(decoding: changed, as: UTF8.self) == "visit 2 of \(key)")
            #expect(changedHead.headerFields["X-Seen-If-None-Match"] == "\"v-1\"")
            let (third, thirdHead) = try await client.exchange(URLRequest(url: url))
            #expect(String(decoding: third, as: UTF8.self) == "visit 3 of \(key)")
            #expect(thirdHead.headerFields["X-Seen-If-None-Match"] == "\"v-2\"")
        }
    }

    @Test(arguments: TransportKind.configured)
    func varyKeepsOneVariantPerValueOfTheNamedField(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let url = server.url("/cache/\(key)?cc=max-age%3D600&vary=Accept-Language")
        func request(_ language: String) -> URLRequest {
            var request = URLRequest(url: url)
            request.setValue(language, forHTTPHeaderField: "Accept-Language")
            return request
        }
        try await transport.withRetryingTransport(policies: Self.policies(HTTPCache())) { client in
            _ = try await client.exchange(request("en"))
            _ = try await client.exchange(request("de"))
            let (english, englishHead) = try await client.exchange(request("en"))
            let (german, germanHead) = try await client.exchange(request("de"))
            #expect(String(decoding: english, as: UTF8.self) == "visit 1 of \(key), variant en")
            #expect(String(decoding: german, as: UTF8.self) == "visit 2 of \(key), variant de")
            #expect(englishHead.metrics.source == .cache && germanHead.metrics.source == .cache)
        }
        #expect(server.visits("cache-" + key) == 2)
    }

    @Test(arguments: TransportKind.configured)
    func anUnsafeRequestInvalidatesWhatIsStoredForItsURL(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let url = server.url("/cache/\(key)?cc=max-age%3D600")
        try await transport.withRetryingTransport(policies: Self.policies(HTTPCache())) { client in
            _ = try await client.exchange(URLRequest(url: url))
            var post = URLRequest(url: url)
            post.httpMethod = "POST"
            let (_, postHead) = try await client.exchange(post)
            #expect(postHead.metrics.source == .network)
            let (after, afterHead) = try await client.exchange(URLRequest(url: url))
            #expect(afterHead.metrics.source == .network)
            #expect(String(decoding: after, as: UTF8.self) == "visit 3 of \(key)")
        }
    }

    @Test(arguments: TransportKind.configured)
    func noStoreAndOnlyIfCachedAreHonoured(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        try await transport.withRetryingTransport(policies: Self.policies(HTTPCache())) { client in
            let unstored = server.url("/cache/\(key)?cc=no-store")
            _ = try await client.exchange(URLRequest(url: unstored))
            let (_, again) = try await client.exchange(URLRequest(url: unstored))
            #expect(again.metrics.source == .network)
            var onlyIfCached = URLRequest(url: server.url("/cache/\(key)-never"))
            onlyIfCached.setValue("only-if-cached", forHTTPHeaderField: "Cache-Control")
            let (body, head) = try await client.exchange(onlyIfCached)
            #expect(head.statusCode == 504)
            #expect(body.isEmpty)
        }
        #expect(server.visits("cache-" + key) == 2)
        #expect(server.visits("cache-\(key)-never") == 0)
    }

    @Test(arguments: TransportKind.configured)
    func aStreamedBodyIsStoredWhenReadWholeAndStreamedBackFromTheCache(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let url = server.url("/cache/\(key)?cc=max-age%3D600&bytes=3000000")
        try await transport.withRetryingTransport(policies: Self.policies(HTTPCache(maximumBytes: 8 << 20))) { client in
            // Dropped part-way: nothing is stored.
            let (partial, _) = try await client.streaming(URLRequest(url: url), nil)
            var iterator = partial.makeAsyncIterator()
            _ = try await iterator.next()
            let (whole, wholeHead) = try await client.streaming(URLRequest(url: url), nil)
            #expect(wholeHead.metrics.source == .network)
            let network = try await whole.collect(upTo: 8 << 20)
            let (cached, cachedHead) = try await client.streaming(URLRequest(url: url), nil)
            #expect(cachedHead.metrics.source == .cache)
            var chunks = 0
            var bytes = Data()
            for try await chunk in cached {
                chunks += 1
                bytes.append(chunk)
            }
            #expect(bytes == network)
            #expect(bytes.count == 3_000_000)
            #expect(chunks > 1, "a stored body is streamed in chunks, not read whole")
            #expect(cached.metrics?.source == .cache)
        }
        #expect(server.visits("cache-" + key) == 2)
    }

    @Test(arguments: TransportKind.configured)
    func aBodyOverTheCachesBoundIsPassedOnButNotStored(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let url = server.url("/cache/\(key)?cc=max-age%3D600&bytes=200000")
        let cache = HTTPCache(maximumBytes: 100_000)
        try await transport.withRetryingTransport(policies: Self.policies(cache)) { client in
            let (first, _) = try await client.exchange(URLRequest(url: url))
            let (second, head) = try await client.exchange(URLRequest(url: url))
            #expect(first.count == 200_000 && second == first)
            #expect(head.metrics.source == .network)
        }
        #expect(cache.storedBytes <= 100_000)
    }

    @Test(arguments: TransportKind.configured)
    func aDirectoryCacheAnswersAnotherTransportLater(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(key)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = server.url("/cache/\(key)?cc=max-age%3D600")
        try await transport.withRetryingTransport(policies: Self.policies(try HTTPCache(directory: directory))) { client in
            _ = try await client.exchange(URLRequest(url: url))
        }
        try await transport.withRetryingTransport(policies: Self.policies(try HTTPCache(directory: directory))) { client in
            let (body, head) = try await client.exchange(URLRequest(url: url))
            #expect(head.metrics.source == .cache)
            #expect(String(decoding: body, as: UTF8.self) == "visit 1 of \(key)")
        }
        #expect(server.visits("cache-" + key) == 1)
    }
}

extension TransportCacheTests {
    @Test(arguments: TransportKind.configured)
    func nginxsStaticFilesAreKeptForTheirExpiresAndRevalidatedByTheirETag(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        try await withHTTP2Proxy(upstreamPort: server.port) { proxy, _ in
            let file = proxy.staticDirectory.appendingPathComponent("page.txt")
            try Data("hello from nginx".utf8).write(to: file)
            try await transport.withRetryingTransport(policies: Self.policies(HTTPCache())) { client in
                let expiring = proxy.plainURL("/static/page.txt")
                let (_, first) = try await client.exchange(URLRequest(url: expiring))
                #expect(first.headerFields["Cache-Control"] == "max-age=3600")
                let (kept, second) = try await client.exchange(URLRequest(url: expiring))
                #expect(second.metrics.source == .cache)
                #expect(String(decoding: kept, as: UTF8.self) == "hello from nginx")

                let validated = proxy.plainURL("/static-revalidated/page.txt")
                _ = try await client.exchange(URLRequest(url: validated))
                let (confirmed, third) = try await client.exchange(URLRequest(url: validated))
                #expect(third.metrics.source == .revalidated)
                #expect(third.statusCode == 200)
                #expect(String(decoding: confirmed, as: UTF8.self) == "hello from nginx")

                try Data("changed on the server".utf8).write(to: file)
                let (changed, fourth) = try await client.exchange(URLRequest(url: validated))
                #expect(fourth.metrics.source == .network)
                #expect(String(decoding: changed, as: UTF8.self) == "changed on the server")
            }
            let log = await proxy.accessLog(atLeast: 4)
            #expect(log.filter { $0.contains("/static/page.txt") }.count == 1)
            #expect(log.filter { $0.contains("/static-revalidated/page.txt") }.count == 3)
        }
    }
}

extension TransportCacheTests {
    /// The files of a directory cache, heads and bodies, without its lock and temporary files.
    private static func entryFiles(in directory: URL) -> [URL] {
        let found = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return found.filter { ["head", "body"].contains($0.pathExtension) }
    }

    @Test(arguments: TransportKind.configured, ["garbage head", "truncated body", "empty head", "another version"])
    func aDamagedEntryOnDiskIsAMissAnsweredByTheServer(_ transport: TransportKind, _ damage: String) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(key)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = server.url("/cache/\(key)?cc=max-age%3D600&bytes=100000")
        let cache = try HTTPCache(directory: directory)
        try await transport.withRetryingTransport(policies: Self.policies(cache)) { client in
            let (original, _) = try await client.exchange(URLRequest(url: url))
            let files = Self.entryFiles(in: directory)
            let head = try #require(files.first { $0.pathExtension == "head" })
            let body = try #require(files.first { $0.pathExtension == "body" })
            switch damage {
            case "garbage head": try Data(repeating: 0x5A, count: 200).write(to: head)
            case "truncated body": try Data(try Data(contentsOf: body).prefix(5_000)).write(to: body)
            case "empty head": try Data().write(to: head)
            default:
                var bytes = try Data(contentsOf: head)
                bytes[11] &+= 1  // the last byte of the big-endian format version
                try bytes.write(to: head)
            }
            let (answer, head2) = try await client.exchange(URLRequest(url: url))
            #expect(head2.metrics.source == .network, "\(damage)")
            #expect(answer == original)
            // Stored again from that answer.
            let (_, head3) = try await client.exchange(URLRequest(url: url))
            #expect(head3.metrics.source == .cache, "\(damage)")
        }
        #expect(server.visits("cache-" + key) == 2)
    }

    @Test(arguments: TransportKind.configured)
    func aDirectoryCacheStaysWithinItsBoundEvictingTheLeastRecentlyUsed(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-\(key)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try HTTPCache(directory: directory, maximumBytes: 250_000)
        func url(_ name: String) -> URL { server.url("/cache/\(key)-\(name)?cc=max-age%3D600&bytes=100000") }
        try await transport.withRetryingTransport(policies: Self.policies(cache)) { client in
            _ = try await client.exchange(URLRequest(url: url("a")))
            _ = try await client.exchange(URLRequest(url: url("b")))
            // `a` used again, so `b` is the least recently used when `c` needs room.
            let (_, aAgain) = try await client.exchange(URLRequest(url: url("a")))
            #expect(aAgain.metrics.source == .cache)
            _ = try await client.exchange(URLRequest(url: url("c")))
            #expect(cache.storedBytes <= 250_000)
            let (_, a) = try await client.exchange(URLRequest(url: url("a")))
            let (_, b) = try await client.exchange(URLRequest(url: url("b")))
            #expect(a.metrics.source == .cache)
            #expect(b.metrics.source == .network)
        }
    }
}

extension TransportCacheTests {
    @Test(arguments: TransportKind.configured)
    func heuristicFreshnessServesAResponseWithOnlyLastModifiedWhenAskedFor(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = Self.key()
        // Last-Modified in 2000: a tenth of the time since is years of heuristic freshness.
        let url = server.url("/cache/\(key)?last_modified=1")
        for heuristics in [false, true] {
            try await transport.withRetryingTransport(policies: Self.policies(HTTPCache(usesHeuristicFreshness: heuristics))) { client in
                _ = try await client.exchange(URLRequest(url: url))
                let (_, head) = try await client.exchange(URLRequest(url: url))
                #expect(head.metrics.source == (heuristics ? .cache : .revalidated))
            }
        }
        #expect(server.visits("cache-" + key) == 3)
    }
}
