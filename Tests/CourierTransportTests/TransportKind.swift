#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation
import Testing

/// The transports the shared suite runs on: every transport-facing test takes one as its
/// argument, so adding a case to `Transport` runs the whole suite on it.
typealias TransportKind = Transport

extension Transport: CustomTestStringConvertible {
    public var testDescription: String { rawValue }

    /// The transports this run tests: the one `COURIER_TRANSPORT` names, or all of them when it
    /// is unset. An invalid value yields none, and `ConfiguredTransportTests` fails naming it.
    static var configured: [Transport] {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty else {
            return allCases
        }
        return (try? Transport(name: value)).map { [$0] } ?? []
    }

    /// One transport per kind for the whole process, as an app would hold one.
    var networking: Networking {
        switch self {
        case .urlSession: Self.sharedURLSession.networking
        case .curl: { request in try await Self.sharedCurl.get().data(for: request) }
        }
    }

    private static let sharedURLSession = URLSessionTransport()
    private static let sharedCurl = Result { () throws(CurlError) in try CurlTransport() }
}

@Suite struct ConfiguredTransportTests {
    @Test func theConfiguredTransportIsValid() throws {
        _ = try Transport(environment: ProcessInfo.processInfo.environment)
        #expect(!Transport.configured.isEmpty)
    }
}
