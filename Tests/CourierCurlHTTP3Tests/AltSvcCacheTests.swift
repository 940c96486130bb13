#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// The Alt-Svc cache on whatever libcurl the process runs on, HTTP/3 or not.
@Suite("The Alt-Svc cache on any libcurl")
struct AltSvcCacheTests {
    /// libcurl takes the cache settings on every version from 7.76; requests go on as before.
    @Test(arguments: [CurlTransport.AltSvcCache.inMemory, .file("alt-svc.txt")])
    func aTransportWithACacheAnswers(cache: CurlTransport.AltSvcCache) async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            let resolved = cache.path.map { CurlTransport.AltSvcCache.file(files.directory.appendingPathComponent($0).path) } ?? cache
            var configuration = CurlTransport.Configuration()
            configuration.caBundlePath = files.caBundlePath
            configuration.altSvcCache = resolved
            let transport = try CurlTransport(configuration: configuration)
            for _ in 0..<3 {
                let (_, head) = try await transport.exchange(URLRequest(url: server.url("/get")))
                #expect(head.statusCode == 200)
            }
            await transport.shutdown()
        }
    }

    @Test func anEmptyFileNameIsRefusedWhenTheTransportStarts() {
        var configuration = CurlTransport.Configuration()
        configuration.altSvcCache = .file("")
        #expect(throws: CurlError.self) { _ = try CurlTransport(configuration: configuration) }
    }

    @Test func theCacheIsSpeltAsItIs() {
        #expect(CurlTransport.AltSvcCache.off.description == "off")
        #expect(CurlTransport.AltSvcCache.inMemory.description == "in-memory")
        #expect(CurlTransport.AltSvcCache.file("/tmp/a").description == "file:/tmp/a")
        #expect(CurlTransport.AltSvcCache.file("/tmp/a").path == "/tmp/a")
        #expect(CurlTransport.AltSvcCache.inMemory.path == nil)
        #expect(CurlTransport.Configuration().altSvcCache == .off)
    }

    /// Only an `Alt-Svc:` line is read, in any letter case, and only its value.
    @Test func theAltSvcFieldIsFoundInTheHead() {
        func value(_ line: String) -> String? {
            Array(line.utf8).withUnsafeBytes { CurlHeadCapture.altSvcValue($0) }
        }
        #expect(value("Alt-Svc: h3=\":443\"; ma=60\r\n") == "h3=\":443\"; ma=60")
        #expect(value("alt-svc:clear\r\n") == "clear")
        #expect(value("ALT-SVC: h2=\":8443\"\r\n") == "h2=\":8443\"")
        #expect(value("Alt-Svcx: h3=\":443\"\r\n") == nil)
        #expect(value("Alt-Svc:\r\n") == nil)
        #expect(value("Content-Type: text/plain\r\n") == nil)
    }
}
