import Foundation

extension ParityCatalogue {
    /// The streaming entry points of both transports: the same head, the same bytes in the same
    /// order however they are chunked, and the same error when a body breaks off or its reader
    /// is cancelled.
    static let streaming: [ParityCase] = [
        ParityCase("streamed empty body", .get("/bytes/0"), action: .stream(readDelay: nil)),
        ParityCase("streamed 3 MiB body", .get("/bytes/\(3 << 20)"), action: .stream(readDelay: nil)),
        ParityCase("streamed chunked body", .get("/stream-bytes/300000?chunk_size=1000"), action: .stream(readDelay: nil)),
        ParityCase("streamed 2 MiB body, slow reader", .get("/bytes/\(2 << 20)"), action: .stream(readDelay: .milliseconds(1))),
        ParityCase("streamed body dripping", .get("/drip/5?interval_ms=50"), action: .stream(readDelay: nil)),
        ParityCase("streamed HEAD", .send("HEAD", "/bytes/1000"), action: .stream(readDelay: nil)),
        ParityCase("streamed 404", .get("/status/404"), action: .stream(readDelay: nil)),
        ParityCase("streamed redirect", .get("/redirect/2"), action: .stream(readDelay: nil)),
        ParityCase("streamed gzip body", .get("/gzip"), action: .stream(readDelay: nil)),
        ParityCase("streamed body cut short", .get("/truncate/100000"), action: .stream(readDelay: nil)),
        // A slow endless body: FoundationNetworking cannot pause, so a fast one keeps arriving,
        // up to the body limit, until the cancel gets its turn on a work queue that the same
        // fast transfer keeps busy; the case would measure that queue, not the transports.
        ParityCase("streamed body cancelled mid-way", .get("/drip/100000?interval_ms=2"), comparing: [.outcome, .failure], action: .cancelStream(afterBytes: 20)),
        ParityCase(
            "streamed upload of 1 MiB",
            .send("PUT", "/anything", body: Data(repeating: 0x61, count: 1 << 20), headers: [("Content-Type", "application/octet-stream")]),
            action: .streamUpload(chunkSize: 65536, declaresLength: true)
        ),
        ParityCase(
            "streamed upload of unknown length",
            .send("PUT", "/anything", body: Data("streamed in pieces".utf8), headers: [("Content-Type", "application/octet-stream")]),
            action: .streamUpload(chunkSize: 5, declaresLength: false),
            known: streamedUploadFramedByItsSpool
        ),
        // An upload is not a form: neither engine labels a POST of one, as both label a POST's
        // own body (`POST body without Content-Type`).
        ParityCase("POST upload of bytes without Content-Type", .send("POST", "/anything", body: Data("a=1&b=2".utf8)), action: .upload(.data)),
        ParityCase("POST upload of a file without Content-Type", .send("POST", "/anything", body: Data("a=1&b=2".utf8)), action: .upload(.file)),
        ParityCase(
            "POST streamed upload without Content-Type",
            .send("POST", "/anything", body: Data("a=1&b=2".utf8)),
            action: .streamUpload(chunkSize: 3, declaresLength: true)
        ),
        ParityCase(
            "POST upload of a file with its own Content-Type",
            .send("POST", "/anything", body: Data("a,b\n1,2\n".utf8), headers: [("Content-Type", "text/csv")]),
            action: .upload(.file)
        ),
        ParityCase(
            "streamed upload, 303 to GET",
            .send("POST", "/redirect-to?url=/anything&status_code=303", body: Data("streamed".utf8)),
            action: .streamUpload(chunkSize: 3, declaresLength: true)
        ),
    ]

    static let streamedUploadFramedByItsSpool: [KnownDifference] = [
        KnownDifference(
            .receivedHeader("transfer-encoding"),
            "FoundationNetworking ends a body stream at the first read that finds nothing, so URLSessionTransport writes a streamed upload to a temporary file first and sends the file with its Content-Length; CurlTransport sends the pieces as they are produced, chunked. Both deliver the same bytes."
        ),
        KnownDifference.following(.receivedHeader("content-length"), "Follows: URLSession knows the length once the spool file is complete."),
        KnownDifference.following(.header("content-length"), "Follows: the echo quotes the request's framing headers."),
        KnownDifference.following(.body, "Follows: the echo quotes the request's framing headers."),
    ]
}
