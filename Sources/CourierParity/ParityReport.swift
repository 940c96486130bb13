#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

/// Sends every request through URLSession and through libcurl, and reports for each whether
/// the two transports agree and, when they do not, the first field that differs.
///
/// ```swift
/// let results = try await parityReport(for: [URLRequest(url: myServer.appending(path: "health"))])
/// for result in results where !result.transportsAgree { print(result) }
/// ```
///
/// Requests go one at a time, URLSession first, so each is sent **twice**: include only
/// requests your server can take twice. The two transports are created for this report with the
/// given configurations and released when it ends. URLSession decodes every content coding here
/// (`contentDecoding: .all`), as libcurl does, so that the two engines are compared on the same
/// exchange; its default asks for identity instead (see
/// ``/Courier/URLSessionTransport/Configuration/ContentDecoding``).
///
/// - Parameters:
///   - requests: The requests to send, each once through each engine.
///   - urlSessionConfiguration: The configuration of the URLSession transport.
///   - curlConfiguration: The configuration of the curl transport.
///   - fields: What to compare; by default everything a client sees. Headers in
///     ``IgnoredHeader/all`` are never compared.
/// - Throws: ``/CourierCurl/CurlError`` when libcurl cannot be initialised.
public func parityReport(
    for requests: [URLRequest],
    urlSessionConfiguration: URLSessionTransport.Configuration = .init(contentDecoding: .all),
    curlConfiguration: CurlTransport.Configuration = .init(),
    comparing fields: ComparedFields = .response
) async throws(CurlError) -> [ParityResult] {
    let curl = try CurlTransport(configuration: curlConfiguration)
    let urlSession = URLSessionTransport(configuration: urlSessionConfiguration)
    let results = await parityReport(for: requests, urlSession: urlSession.networking, curl: curl.networking, comparing: fields)
    await curl.shutdown()
    urlSession.session.finishTasksAndInvalidate()
    return results
}

/// ``parityReport(for:urlSessionConfiguration:curlConfiguration:comparing:)`` with transports you
/// already hold, for example ones with request modifiers composed onto them.
///
/// - Parameters:
///   - requests: The requests to send, each once through each transport.
///   - urlSession: The reference transport, reported as URLSession's values.
///   - curl: The transport compared with it, reported as curl's values.
///   - fields: What to compare, as above.
public func parityReport(
    for requests: [URLRequest],
    urlSession: Networking,
    curl: Networking,
    comparing fields: ComparedFields = .response
) async -> [ParityResult] {
    let comparison = ParityComparison(fields: fields)
    var results: [ParityResult] = []
    results.reserveCapacity(requests.count)
    for request in requests {
        let urlSessionOutcome = await ExchangeOutcome(sending: request, through: urlSession)
        let curlOutcome = await ExchangeOutcome(sending: request, through: curl)
        results.append(ParityResult(
            request: request,
            urlSession: urlSessionOutcome,
            curl: curlOutcome,
            firstDifference: comparison.firstDifference(urlSession: urlSessionOutcome, curl: curlOutcome)
        ))
    }
    return results
}
