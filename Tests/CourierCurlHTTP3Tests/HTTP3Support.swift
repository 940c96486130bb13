#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import Foundation
@testable import CourierCurl

/// Whether the libcurl this process runs on speaks HTTP/3: the HTTP/3 cases run only there
/// (scripts/test-http3 builds against one), the refusal cases only elsewhere.
let libcurlHasHTTP3 = Curl.features.http3

/// A transport that trusts the test CA, for the HTTP/3 server's certificate.
func makeTransport(
    _ version: CurlTransport.HTTPVersionPreference, files: TLSTestFiles,
    _ configure: (inout CurlTransport.Configuration) -> Void = { _ in }
) throws -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.httpVersion = version
    configuration.caBundlePath = files.caBundlePath
    configure(&configuration)
    return try CurlTransport(configuration: configuration)
}

/// What `/get` answers.
struct ServerView: Decodable, Equatable {
    let httpVersion: String
    let method: String
    let bytes: Int
    let client: String
}

extension CurlTransport {
    /// GET `url`: the server's view of the request and the head.
    func get(_ url: URL) async throws -> (ServerView, ResponseHead) {
        let (data, head) = try await exchange(URLRequest(url: url))
        return (try JSONDecoder().decode(ServerView.self, from: data), head)
    }
}

/// The port of an `ip:port` address, as metrics write it.
func port(of address: String?) -> Int? {
    address?.split(separator: ":").last.flatMap { Int($0) }
}

/// A TCP socket listening on 127.0.0.1 that accepts nothing by itself, so a test can tell
/// whether anything connected to it: "nothing was sent" is checked, not assumed.
final class LoopbackListener {
    let port: Int
    private let socket: Int32

    init() throws {
        #if canImport(Glibc)
        let stream = Int32(SOCK_STREAM.rawValue)
        #else
        let stream = SOCK_STREAM
        #endif
        let socket = Foundation.socket(AF_INET, stream | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { throw HTTPSTestServerError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 16) == 0 else {
            close(socket)
            throw HTTPSTestServerError("bind or listen on 127.0.0.1 failed: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(socket)
    }

    /// Whether a connection is waiting to be accepted (one is taken and closed if so).
    func hasConnection() -> Bool {
        let client = accept(socket, nil, nil)
        guard client >= 0 else { return false }
        close(client)
        return true
    }
}
