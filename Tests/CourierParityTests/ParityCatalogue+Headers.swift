import Foundation
extension ParityCatalogue {
    static let headers: [ParityCase] = [
        ParityCase("50 request headers", .get("/headers", headers: (0..<50).map { ("X-Custom-\($0)", "value-\($0)") })),
        ParityCase("repeated request header", .get("/headers", headers: [("X-Repeated", "one"), ("X-Repeated", "two")])),
        ParityCase("request header with an empty value", .get("/headers", headers: [("X-Empty", "")])),
        ParityCase("request header with non-ASCII value", .get("/headers", headers: [("X-Name", "élève")])),
        ParityCase("request sets its own User-Agent", .get("/headers", headers: [("User-Agent", "Courier-Parity/1")])),
        ParityCase("request header value with surrounding spaces", .get("/headers", headers: [("X-Padded", "  padded  ")])),
        ParityCase("request sets its own Host", .get("/headers", headers: [("Host", "example.test")])),
        ParityCase("body shorter than its Content-Length", .send("POST", "/anything", body: Data("abc".utf8), headers: [("Content-Length", "10")])),
        ParityCase("body matching its Content-Length", .send("POST", "/anything", body: Data("abc".utf8), headers: [("Content-Length", "3")])),
        ParityCase("body longer than its Content-Length", .send("POST", "/anything", body: Data("abcdef".utf8), headers: [("Content-Length", "2")])),
        ParityCase("request sets its own Accept", .get("/headers", headers: [("Accept", "application/json")])),
        // A gzip body that is not an echo: FoundationNetworking sends a request's own headers in
        // its dictionary's order, which varies from process to process, so a gzipped echo of them
        // varied in length by a byte from run to run.
        ParityCase("request sets Accept-Encoding identity", .get("/bomb/gzip/1", headers: [("Accept-Encoding", "identity")])),
        ParityCase("request sets Connection close", .get("/get", headers: [("Connection", "close")])),
        ParityCase("request sets Expect 100-continue", .send("POST", "/anything", body: .init("x".utf8), headers: [("Expect", "100-continue")])),
        ParityCase("1000 response headers", .get("/many-headers/1000")),
        ParityCase("response header with an empty value", .get("/response-headers?X-Empty=")),
        ParityCase("response header with an 8 KiB value", .get("/response-headers?X-Long=" + String(repeating: "v", count: 8 << 10))),
        ParityCase("repeated response header", .get("/response-headers?X-Dup=a&X-Dup=b&X-Dup=c")),
        ParityCase(
            "response header names differing in case", .get("/response-headers?X-Case=a&x-case=b")
        ),
        ParityCase("repeated Set-Cookie response header", .get("/response-headers?Set-Cookie=a%3D1&Set-Cookie=b%3D2")),
        ParityCase("response header with non-ASCII value", .get("/response-headers?X-Text=%C3%A9")),
        ParityCase("Connection close from the server", RequestSpec(method: "GET", location: .on(.closing, "/get")),
                   receivedBy: .closing),
    ]
}
