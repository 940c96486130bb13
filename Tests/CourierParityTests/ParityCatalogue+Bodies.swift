import Foundation

extension ParityCatalogue {
    static let responseBodies: [ParityCase] = [
        ParityCase("empty response body", .get("/bytes/0")),
        ParityCase("small response body", .get("/bytes/100")),
        ParityCase("binary response body", .get("/bytes/4096?seed=7")),
        ParityCase("10 MiB response body", .get("/bytes/\(10 << 20)")),
        ParityCase("chunked response body", .get("/stream-bytes/100000?chunk_size=1000")),
        ParityCase("chunked 10 MiB response body", .get("/stream-bytes/\(10 << 20)?chunk_size=65536")),
        ParityCase("HEAD of a 10 MiB body", .send("HEAD", "/bytes/\(10 << 20)")),
    ]

    static let requestBodies: [ParityCase] = [
        ParityCase(
            "JSON request body",
            .send("POST", "/anything", body: Data(#"{"name":"Ada","tags":["a","b"]}"#.utf8),
                  headers: [("Content-Type", "application/json")])
        ),
        ParityCase(
            "form request body",
            .send("POST", "/anything", body: Data("a=1&b=x+y&c=%C3%A9".utf8),
                  headers: [("Content-Type", "application/x-www-form-urlencoded")])
        ),
        ParityCase("POST body without Content-Type", .send("POST", "/anything", body: Data("plain".utf8))),
        ParityCase(
            "binary request body",
            .send("PUT", "/anything", body: Data((0...255).map(UInt8.init)),
                  headers: [("Content-Type", "application/octet-stream")])
        ),
        ParityCase("PUT with a stream body", .streaming("PUT", "/anything", body: Data("streamed".utf8))),
        ParityCase("POST with a 3 MiB stream body", .streaming("POST", "/anything/large", body: Data(repeating: 0x62, count: 3 << 20))),
        ParityCase("GET with a stream body", .streaming("GET", "/anything", body: Data("streamed".utf8))),
        ParityCase(
            "stream body with its own Content-Length",
            .streaming("PUT", "/anything", body: Data("streamed".utf8), headers: [("Content-Length", "8")]),
            known: streamSentWithBothFramings
        ),
        ParityCase("302 after a POST with a stream body", .streaming("POST", "/redirect-to?url=/anything&status_code=302", body: Data("streamed".utf8))),
        ParityCase(
            "stream body that fails to read",
            RequestSpec(method: "PUT", location: .on(.main, "/anything"), bodyStreamFile: "/nonexistent/courier-body"),
            comparing: .response, known: failingStreamSentEmpty
        ),
        ParityCase(
            "307 after a POST with a stream body",
            .streaming("POST", "/redirect-to?url=/anything&status_code=307", body: Data("streamed".utf8))
        ),
        ParityCase("empty POST body", .send("POST", "/anything", body: Data())),
        ParityCase("empty PUT body", .send("PUT", "/anything", body: Data())),
        ParityCase(
            "5 MiB request body",
            .send("POST", "/anything/large", body: Data(repeating: 0x61, count: 5 << 20),
                  headers: [("Content-Type", "application/octet-stream")])
        ),
    ]
}
