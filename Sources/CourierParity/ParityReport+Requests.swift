#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

/// Compares both engines on your own typed requests, with your own policies: each ``/Courier/Request``
/// is resolved against `baseURL` as ``/Courier/APIClient`` resolves it, and sent once through a
/// `URLSessionTransport` and once through a `CurlTransport`, both built with `policies`.
///
/// ```swift
/// let results = try await parityReport(for: .health, .repos(of: "apple"), baseURL: staging, policies: policies)
/// for result in results { #expect(result.transportsAgree, "\(result)") }
/// ```
///
/// The requests may have different response types. Each is sent **twice**, so include only
/// requests your server can take twice; see
/// ``parityReport(for:urlSessionConfiguration:curlConfiguration:comparing:)`` for the rest.
///
/// - Throws: ``/Courier/RequestError`` for a request that cannot be built; `CurlError` when
///   libcurl cannot be initialised.
public func parityReport<each Response>(
    for requests: repeat Request<each Response>,
    baseURL: URL,
    policies: Policies = Policies(),
    comparing fields: ComparedFields = .response
) async throws -> [ParityResult] {
    var urlRequests: [URLRequest] = []
    for request in repeat each requests {
        urlRequests.append(try request.urlRequest(baseURL: baseURL))
    }
    var curl = CurlTransport.Configuration()
    curl.policies = policies
    return try await parityReport(
        for: urlRequests,
        urlSessionConfiguration: .init(policies: policies, contentDecoding: .all),
        curlConfiguration: curl,
        comparing: fields
    )
}
