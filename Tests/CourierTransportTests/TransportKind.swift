#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation
import Testing

/// The transports the shared suite runs on. Every transport-facing test takes one of these as
/// its argument, so adding a transport here runs the whole suite on it.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case curl

    /// One transport per kind for the whole process, as an app would hold one.
    var networking: Networking {
        switch self {
        case .urlSession: Self.sharedURLSession.networking
        case .curl: { request in try await Self.sharedCurl.get().data(for: request) }
        }
    }

    var testDescription: String { rawValue }

    /// Runs `body` with a transport of this kind that no other test shares, for tests whose
    /// assertions (connection counts) would be disturbed by other tests' traffic, and releases
    /// it afterwards.
    func withIsolatedNetworking<T>(_ body: (Networking) async throws -> T) async throws -> T {
        switch self {
        case .urlSession:
            let transport = URLSessionTransport()
            defer { transport.session.finishTasksAndInvalidate() }
            return try await body(transport.networking)
        case .curl:
            let transport = try CurlTransport()
            defer { transport.shutdown() }
            return try await body(transport.networking)
        }
    }

    private static let sharedURLSession = URLSessionTransport()
    private static let sharedCurl = Result { () throws(CurlError) in try CurlTransport() }
}
