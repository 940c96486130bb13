import Courier
import Foundation

/// Compares what the two transports produced, field by field, in a fixed order: outcome,
/// status code, headers (by name), body, final URL, failure; then what the server received:
/// whether it got a request, method, target, headers, body.
///
/// Headers in ``IgnoredHeader/all`` are never compared.
public struct ParityComparison: Sendable {
    /// The fields looked at; ``ComparedFields/outcome`` is always added.
    public var fields: ComparedFields

    /// A comparison of `fields`, by default everything a client sees.
    public init(fields: ComparedFields = .response) {
        self.fields = fields.union(.outcome)
    }

    /// The first field on which the outcomes differ, or `nil` when they agree.
    public func firstDifference(urlSession: ExchangeOutcome, curl: ExchangeOutcome) -> ParityDifference? {
        differences(urlSession: urlSession, curl: curl).first
    }

    /// Every field on which the outcomes differ, in comparison order.
    public func differences(urlSession: ExchangeOutcome, curl: ExchangeOutcome) -> [ParityDifference] {
        switch (urlSession, curl) {
        case (.response(let urlSession), .response(let curl)):
            return differences(urlSession: urlSession, curl: curl)
        case (.failure(let urlSession), .failure(let curl)):
            guard fields.contains(.failure), urlSession != curl else { return [] }
            return [ParityDifference(field: .failure, urlSession: urlSession.description, curl: curl.description)]
        default:
            return [ParityDifference(field: .outcome, urlSession: urlSession.summary, curl: curl.summary)]
        }
    }

    /// Every field on which the requests the server received differ, in comparison order;
    /// `nil` means the server received no request.
    public func differences(urlSession: ReceivedRequest?, curl: ReceivedRequest?) -> [ParityDifference] {
        switch (urlSession, curl) {
        case (nil, nil):
            return []
        case (let urlSession?, let curl?):
            return differences(urlSession: urlSession, curl: curl)
        default:
            guard !fields.isDisjoint(with: .received) else { return [] }
            return [ParityDifference(
                field: .receivedRequest,
                urlSession: urlSession == nil ? "none" : "received",
                curl: curl == nil ? "none" : "received"
            )]
        }
    }

    private func differences(urlSession: ExchangeResponse, curl: ExchangeResponse) -> [ParityDifference] {
        var found: [ParityDifference] = []
        if fields.contains(.statusCode), urlSession.statusCode != curl.statusCode {
            found.append(ParityDifference(field: .statusCode, urlSession: "\(urlSession.statusCode)", curl: "\(curl.statusCode)"))
        }
        if fields.contains(.headers) {
            found += headerDifferences(urlSession.headers, curl.headers, field: ParityField.header)
        }
        if fields.contains(.body), let difference = Self.bodyDifference(urlSession.body, curl.body, field: .body) {
            found.append(difference)
        }
        if fields.contains(.finalURL), urlSession.url != curl.url {
            let describe = { (url: URL?) in url?.redactedString ?? "none" }
            found.append(ParityDifference(field: .finalURL, urlSession: describe(urlSession.url), curl: describe(curl.url)))
        }
        return found
    }

    private func differences(urlSession: ReceivedRequest, curl: ReceivedRequest) -> [ParityDifference] {
        var found: [ParityDifference] = []
        if fields.contains(.receivedMethod), urlSession.method != curl.method {
            found.append(ParityDifference(field: .receivedMethod, urlSession: urlSession.method, curl: curl.method))
        }
        if fields.contains(.receivedTarget), urlSession.target != curl.target {
            found.append(ParityDifference(field: .receivedTarget, urlSession: urlSession.target, curl: curl.target))
        }
        if fields.contains(.receivedHeaders) {
            found += headerDifferences(urlSession.headers, curl.headers, field: ParityField.receivedHeader)
        }
        if fields.contains(.receivedBody),
           let difference = Self.bodyDifference(urlSession.body, curl.body, field: .receivedBody) {
            found.append(difference)
        }
        return found
    }

    private func headerDifferences(
        _ urlSession: HeaderFields, _ curl: HeaderFields, field: (String) -> ParityField
    ) -> [ParityDifference] {
        let names = Set(urlSession.names).union(curl.names).subtracting(IgnoredHeader.names).sorted()
        return names.compactMap { name in
            let urlSessionValues = urlSession[name]
            let curlValues = curl[name]
            guard urlSessionValues != curlValues else { return nil }
            return ParityDifference(
                field: field(name), urlSession: Self.describe(urlSessionValues), curl: Self.describe(curlValues)
            )
        }
    }

    private static func describe(_ values: [String]) -> String {
        values.isEmpty ? "absent" : values.joined(separator: " | ")
    }

    private static func bodyDifference(_ urlSession: Data, _ curl: Data, field: ParityField) -> ParityDifference? {
        guard urlSession != curl else { return nil }
        let offset = zip(urlSession, curl).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(urlSession.count, curl.count)
        return ParityDifference(
            field: field,
            urlSession: urlSession.parityDescription(differingAt: offset),
            curl: curl.parityDescription(differingAt: offset)
        )
    }
}
