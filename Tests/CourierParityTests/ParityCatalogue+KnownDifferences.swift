import CourierParity

/// The known differences, each written once and attached to the cases that show it. Echo routes
/// answer with the request they received, so a difference in what was sent also shows in the
/// echo's `Content-Length` and body; those follow-on fields are recorded as such.
extension ParityCatalogue {
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

    static let miscasedHTTPNameAccepted: [KnownDifference] = [
        KnownDifference(
            .outcome,
            "RFC 9112 §4 makes the HTTP-name case-sensitive, and CurlTransport refuses `Http/1.1 200 OK` with URLError.badServerResponse. libcurl reads the name without regard to case, and FoundationNetworking keeps no trace of the version it parsed (HTTPURLResponse has none, its task metrics no protocol name), so URLSessionTransport cannot tell the reply from an HTTP/1.1 one and returns it as a 200."
        ),
    ]

    static let statusLineWithNoSpaceRefused: [KnownDifference] = [
        KnownDifference(
            .outcome,
            "For a status line with no space after the code (`HTTP/1.1 200`), which libcurl and most clients accept, CurlTransport returns the response. FoundationNetworking's own parser needs the space and aborts the transfer inside libcurl before any delegate sees the response; URLSessionTransport fails with URLError.badServerResponse, saying that FoundationNetworking could not parse the status line."
        ),
    ]
}
