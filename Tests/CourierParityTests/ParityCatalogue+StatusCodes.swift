extension ParityCatalogue {
    /// Every status a client can see from `/status/{code}` (it serves 200...599, so no 1xx).
    /// 301, 302, 303, 307 and 308 carry `Location: /get` and are followed.
    static let statusCodes: [ParityCase] = codes.map { code in
        ParityCase("status \(code)", .get("/status/\(code)"))
    } + statusLines

    /// Status lines written byte for byte; each reply closes its connection, so only the
    /// response is compared.
    private static let statusLines: [ParityCase] = [
        ParityCase("status line with an empty reason phrase", .get("/status-line/empty-reason"), comparing: .response),
        ParityCase("status line with a non-numeric code", .get("/status-line/non-numeric"), comparing: .response),
        ParityCase("status line of an SSH server", .get("/status-line/ssh-banner"), comparing: .response),
        ParityCase("reply with no status line (HTTP/0.9)", .get("/status-line/http09"), comparing: .response),
        ParityCase(
            "status line with the HTTP-name miscased", .get("/status-line/lowercase-name"), comparing: .response,
            known: miscasedHTTPNameAccepted
        ),
        ParityCase(
            "status line with no space after the code", .get("/status-line/no-reason"), comparing: .response,
            known: statusLineWithNoSpaceRefused
        ),
    ]

    private static let codes: [Int] =
        [200, 201, 202, 203, 204, 205, 206]
        + Array(300...308)
        + Array(400...418)
        + [421, 422, 426, 428, 429, 431, 451]
        + Array(500...504) + [505, 511]
}
