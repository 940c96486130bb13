#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// Names one of Courier's transports, so the choice can come from configuration.
///
/// ```swift
/// // COURIER_TRANSPORT=curl ./MyService
/// let kind = try TransportKind(environment: ProcessInfo.processInfo.environment)
/// let client = APIClient(baseURL: baseURL, transport: try kind.makeTransport())
/// ```
///
/// The switch lives beside the libcurl transport because choosing it means linking it: depend on
/// the `CourierCurl` product to use either.
public enum TransportKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `URLSessionTransport` (FoundationNetworking on Linux).
    case urlSession = "urlsession"
    /// `CurlTransport`, on libcurl's multi interface.
    case curl

    /// The environment variable read by ``init(environment:)``: `COURIER_TRANSPORT`.
    package static let environmentVariable = "COURIER_TRANSPORT"

    /// The transport used when nothing is configured: ``urlSession``, Foundation's own, so that
    /// adopting Courier changes nothing on the wire until a team opts into ``curl``.
    package static let `default` = TransportKind.urlSession

    /// Reads `COURIER_TRANSPORT` from `environment`; unset or empty means ``urlSession``,
    /// Foundation's own, so that adopting Courier changes nothing on the wire until a team opts
    /// into ``curl``.
    ///
    /// - Throws: ``TransportSelectionError`` naming the value and the accepted values when the
    ///   variable holds anything else: a misspelt name never falls back silently.
    public init(environment: [String: String]) throws(TransportSelectionError) {
        guard let value = environment[Self.environmentVariable], !value.isEmpty else {
            self = .default
            return
        }
        try self.init(name: value, source: Self.environmentVariable)
    }

    /// Parses a transport name, ignoring letter case: `curl` or `urlsession`.
    ///
    /// - Parameter source: Where the name came from, quoted in the error (a flag, a file).
    package init(name: String, source: String = "transport") throws(TransportSelectionError) {
        guard let transport = TransportKind(rawValue: name.lowercased()) else {
            throw TransportSelectionError(value: name, source: source)
        }
        self = transport
    }

    /// A new transport of this kind, as the protocol both engines share; keep it to shut it
    /// down, stream, download or upload whichever kind the configuration chose, or take its
    /// `exchange` or `networking`, which keep it alive.
    ///
    /// - Parameters:
    ///   - policies: Replace the configurations' own policies when given, so a caller states
    ///     them once for either kind.
    ///   - urlSession: Settings used when this is ``urlSession``.
    ///   - curl: Settings used when this is ``curl``.
    /// - Throws: `CurlError` when libcurl cannot be set up.
    public func makeTransport(
        policies: Policies? = nil,
        urlSession: URLSessionTransport.Configuration = .init(),
        curl: CurlTransport.Configuration = .init()
    ) throws -> any HTTPTransport {
        switch self {
        case .urlSession:
            var configuration = urlSession
            if let policies { configuration.policies = policies }
            return URLSessionTransport(configuration: configuration)
        case .curl:
            var configuration = curl
            if let policies { configuration.policies = policies }
            return try CurlTransport(configuration: configuration)
        }
    }


    public var description: String { rawValue }
}

/// A transport name that is not one of Courier's; its ``description`` names where the name came
/// from, the name, and the accepted ones.
public struct TransportSelectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value that was given.
    package var value: String
    /// Where it came from, e.g. `COURIER_TRANSPORT`.
    package var source: String

    /// Creates an error for `value`, read from `source`; package-wide so that Courier's other
    /// readers of configuration (`CourierConfiguration`'s `ConfigReader`) report a bad name the
    /// same way.
    package init(value: String, source: String) {
        self.value = value
        self.source = source
    }

    public var description: String {
        let accepted = TransportKind.allCases.map(\.rawValue).joined(separator: ", ")
        return "\(source)=\(value.debugDescription) is not a transport; accepted values: \(accepted) (unset means \(TransportKind.default))"
    }
}
