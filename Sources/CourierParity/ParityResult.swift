#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// How the two transports answered one request.
public struct ParityResult: Sendable {
    /// The request, as given.
    public var request: URLRequest
    /// What URLSession produced.
    public var urlSession: ExchangeOutcome
    /// What CurlTransport produced.
    public var curl: ExchangeOutcome
    /// The first field on which they differ; `nil` when they agree.
    public var firstDifference: ParityDifference?

    /// Creates a result from its parts.
    public init(request: URLRequest, urlSession: ExchangeOutcome, curl: ExchangeOutcome, firstDifference: ParityDifference?) {
        self.request = request
        self.urlSession = urlSession
        self.curl = curl
        self.firstDifference = firstDifference
    }

    /// Whether the transports agree on every compared field.
    public var transportsAgree: Bool { firstDifference == nil }
}

extension ParityResult: CustomStringConvertible {
    public var description: String {
        let method = request.httpMethod ?? "GET"
        let url = request.url?.redactedString ?? "(no URL)"
        guard let firstDifference else { return "agree: \(method) \(url)" }
        return "differ: \(method) \(url): \(firstDifference)"
    }
}
