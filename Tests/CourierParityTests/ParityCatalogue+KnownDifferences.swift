import CourierParity

/// The known differences, each written once and attached to the cases that show it. Echo routes
/// answer with the request they received, so a difference in what was sent also shows in the
/// echo's `Content-Length` and body; those follow-on fields are recorded as such.
extension ParityCatalogue {
    static func headerSpellingsKeptApart(_ name: String) -> [KnownDifference] {
        [KnownDifference(
            .header(name),
            "FoundationNetworking keeps names that differ only in letter case as separate keys of allHeaderFields, so value(forHTTPHeaderField:) returns one of the values; CurlTransport joins them with \", \" under the first spelling, since names are case-insensitive (RFC 9110 §5.1)."
        )]
    }

    static let contentTypeKeptWhenRedirectDropsTheBody: [KnownDifference] = [
        KnownDifference(
            .receivedHeader("content-type"),
            "A 301/302/303 turns the POST into a body-less GET; FoundationNetworking still sends the POST's Content-Type, CurlTransport removes it with the body (Fetch: request-body headers are removed on a method change)."
        ),
    ] + echoShowsIt

    static let bodyDroppedOnRedirectKeepingTheMethod: [KnownDifference] = [
        KnownDifference(
            .receivedBody,
            "When a redirect keeps the method (307, 308, or 301/302 for a method other than POST) FoundationNetworking sends the redirected request without its body, even when the redirect delegate returns the request with the body; RFC 9110 §15.4.8/§15.4.9 require the same body, which CurlTransport sends."
        ),
        KnownDifference.following(.receivedHeader("content-length"), "Follows: URLSession sends Content-Length: 0."),
    ] + echoShowsIt

    static let headTurnedIntoGetBy303: [KnownDifference] = [
        KnownDifference(
            .receivedMethod,
            "FoundationNetworking follows a 303 with GET even for HEAD; RFC 9110 §15.4.4 (\"other than HEAD\") and Fetch keep HEAD, as CurlTransport does."
        ),
        KnownDifference.following(.body, "Follows: URLSession's GET gets a body where HEAD gets none."),
    ]

    static func credentialForwardedAcrossOrigins(_ name: String) -> [KnownDifference] {
        [KnownDifference(
            .receivedHeader(name),
            "FoundationNetworking forwards \(name.capitalized) to a different host or port on redirect; CurlTransport removes Authorization, Cookie and Proxy-Authorization when the origin changes, as curl (CVE-2018-1000007), Go and urllib3 do."
        )] + echoShowsIt
    }

    static let unsupportedRedirectTarget: [KnownDifference] = [
        KnownDifference(
            .outcome,
            "FoundationNetworking follows a Location with a scheme it cannot send and fails with URLError.unsupportedURL; CurlTransport follows only http and https and returns the 3xx response itself."
        ),
    ]

    static let ftpStillSpokenByURLSession: [KnownDifference] = [
        KnownDifference(
            .failure,
            "FoundationNetworking still speaks FTP through libcurl and so tries to connect (cannotConnectToHost here); CurlTransport sends only http and https and fails with unsupportedURL at once."
        ),
    ]

    static let truncatedBodyCode: [KnownDifference] = [
        KnownDifference(
            .failure,
            "FoundationNetworking does not map libcurl's CURLE_PARTIAL_FILE and reports URLError.unknown; CurlTransport reports networkConnectionLost, as URLSession on Darwin does."
        ),
    ]

    static let undecodableBodyCode: [KnownDifference] = [
        KnownDifference(
            .failure,
            "FoundationNetworking does not map libcurl's CURLE_BAD_CONTENT_ENCODING and reports URLError.unknown; CurlTransport reports cannotDecodeContentData, as URLSession on Darwin does."
        ),
    ]

    static let streamSentWithBothFramings: [KnownDifference] = [
        KnownDifference(
            .statusCode,
            "For an httpBodyStream with the request's own Content-Length, FoundationNetworking sends that header and Transfer-Encoding: chunked as well, which RFC 9112 §6.3 forbids, and the server answers 400; CurlTransport sends the body framed by the Content-Length."
        ),
        KnownDifference.following(.receivedRequest, "Follows: the server refused URLSession's request before reading it."),
        KnownDifference.following(.header("connection"), "Follows: the server closes after a 400."),
        KnownDifference.following(.header("content-length"), "Follows: the 400 has no body."),
        KnownDifference.following(.header("content-type"), "Follows: the 400 has no body."),
        KnownDifference.following(.body, "Follows: the 400 has no body."),
    ]

    static let failingStreamSentEmpty: [KnownDifference] = [
        KnownDifference(
            .outcome,
            "When reading an httpBodyStream fails (here a file that does not exist), FoundationNetworking sends the request with an empty body and reports the response; CurlTransport stops the request and fails with URLError.unknown, its CurlError saying that the body stream failed."
        ),
    ]

    static let streamNotReplayedOnRedirect: [KnownDifference] = [
        KnownDifference(
            .outcome,
            "A 307 or 308 must resend the body, and a stream cannot be read twice: FoundationNetworking resends the request with an empty body, losing it silently; CurlTransport fails with URLError.requestBodyStreamExhausted, Darwin URLSession's code when no new stream is given."
        ),
        KnownDifference.following(.receivedTarget, "Follows: CurlTransport stopped before the redirect, so the server's last request is the first one."),
        KnownDifference.following(.receivedHeader("content-length"), "Follows: URLSession's resend says Content-Length: 0."),
        KnownDifference.following(.receivedHeader("transfer-encoding"), "Follows: the first request was chunked."),
        KnownDifference.following(.receivedBody, "Follows: the first request carried the body, URLSession's resend none."),
    ]

    /// The echo of a request that was sent differently.
    private static let echoShowsIt: [KnownDifference] = [
        KnownDifference.following(.header("content-length"), "Follows: the echo of a different request has a different length."),
        KnownDifference.following(.body, "Follows: the echo shows the request as received."),
    ]
}
