extension ParityCatalogue {
    /// Every status a client can see from `/status/{code}` (it serves 200...599, so no 1xx).
    /// 301, 302, 303, 307 and 308 carry `Location: /get` and are followed.
    static let statusCodes: [ParityCase] = codes.map { code in
        ParityCase("status \(code)", .get("/status/\(code)"))
    }

    private static let codes: [Int] =
        [200, 201, 202, 203, 204, 205, 206]
        + Array(300...308)
        + Array(400...418)
        + [421, 422, 426, 428, 429, 431, 451]
        + Array(500...504) + [505, 511]
}
