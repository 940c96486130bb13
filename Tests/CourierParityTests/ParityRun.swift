import CourierParity

/// What one case produced on each transport: the outcomes and the requests the server recorded.
struct ParityRun: Sendable {
    var urlSession: ExchangeOutcome
    var curl: ExchangeOutcome
    var receivedFromURLSession: ReceivedRequest?
    var receivedFromCurl: ReceivedRequest?

    /// Every compared field that differs, client side first.
    func differences(comparing fields: ComparedFields) -> [ParityDifference] {
        let comparison = ParityComparison(fields: fields)
        return comparison.differences(urlSession: urlSession, curl: curl)
            + comparison.differences(urlSession: receivedFromURLSession, curl: receivedFromCurl)
    }
}
