#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation
import Testing

/// The transports the shared suite runs on: every transport-facing test takes one as its
/// argument, so adding a case to `TransportKind` runs the whole suite on it. Named here so that
/// every file of the suite sees it without importing CourierCurl.
typealias TransportKind = CourierCurl.TransportKind

extension TransportKind: CustomTestStringConvertible {
    public var testDescription: String { rawValue }

    /// The transports this run tests: the one `COURIER_TRANSPORT` names, or all of them when it
    /// is unset. An invalid value yields none, and `ConfiguredTransportTests` fails naming it.
    static var configured: [TransportKind] {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty else {
            return allCases
        }
        return (try? TransportKind(name: value)).map { [$0] } ?? []
    }

    /// One transport per kind for the whole process, as an app would hold one.
    var networking: Networking {
        switch self {
        case .urlSession: Self.sharedURLSession.networking
        case .curl: { request in try await Self.sharedCurl.get().data(for: request) }
        }
    }

    /// This kind's shared transport as a ``StreamingNetworking``: `stream(for:uploading:)`,
    /// the streaming engine with the policy layers over it.
    var streaming: StreamingNetworking {
        switch self {
        case .urlSession: { request, upload in try await Self.sharedURLSession.stream(for: request, uploading: upload) }
        case .curl: { request, upload in try await Self.sharedCurl.get().stream(for: request, uploading: upload) }
        }
    }

    /// Whether ``streaming`` stops receiving while a slow reader's buffer is full.
    ///
    /// FoundationNetworking cannot pause a transfer: its `suspend()` takes the easy handle off
    /// libcurl's multi handle, which was measured to either let the bytes keep coming or to
    /// abort the transfer, `resume()` then sending the request again on a new connection. So
    /// URLSessionTransport keeps receiving into the body's buffer, up to
    /// `Policies.maximumResponseBytes`. CurlTransport pauses the easy handle.
    var pausesForASlowReader: Bool {
        switch self {
        case .urlSession: false
        case .curl: true
        }
    }

    /// Whether ``streaming`` fails a body past `Policies.maximumResponseBytes`.
    ///
    /// URLSessionTransport must: it cannot pause, so the limit is what bounds the bytes a slow
    /// reader leaves unread. CurlTransport pauses instead and leaves a streamed body's size to
    /// its reader.
    var limitsStreamedBodies: Bool {
        switch self {
        case .urlSession: true
        case .curl: false
        }
    }

    private static let sharedURLSession = URLSessionTransport()
    private static let sharedCurl = Result { () throws(CurlError) in try CurlTransport() }

    /// The shared transports themselves, for their other entry points (`exchange`).
    static var sharedURLSessionTransport: URLSessionTransport { sharedURLSession }
    static var sharedCurlTransport: CurlTransport {
        get throws { try sharedCurl.get() }
    }
}

@Suite struct ConfiguredTransportTests {
    @Test func theConfiguredTransportIsValid() throws {
        _ = try TransportKind(environment: ProcessInfo.processInfo.environment)
        #expect(!TransportKind.configured.isEmpty)
    }
}
