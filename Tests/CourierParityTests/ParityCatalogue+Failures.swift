import CourierParity
import Foundation

extension ParityCatalogue {
    static let failures: [ParityCase] = timeouts + serverFaults + refusedBeforeSending + [
        ParityCase("refused connection", RequestSpec(method: "GET", location: .refusingPort("/get")), comparing: .response),
        ParityCase("self-signed certificate", RequestSpec(method: "GET", location: .untrustedTLS("/get")), comparing: .response),
        // Found by this catalogue: a pooled easy handle kept the refused connect's errno, and
        // CurlTransport reported the next, unrelated failure as cannotConnectToHost.
        ParityCase(
            "server closes before answering, after a refused connection", .get("/close"), comparing: .response,
            action: .sendAfterRefusedConnection, needsOwnCurlTransport: true
        ),
        // The server never answers, so the cancel ends the call however late it comes.
        ParityCase("cancelled while waiting", .get("/never"), comparing: .response, action: .cancel(after: .milliseconds(200))),
        ParityCase("cancelled mid-body", .get("/stall/1000"), comparing: .response, action: .cancel(after: .milliseconds(200))),
    ]

    // The timeouts that must fire do so against a server that never answers: one that would
    // answer after a few seconds answered first whenever a loaded machine delayed the timeout.
    private static let timeouts: [ParityCase] = [
        ParityCase("timeout before the response", timingOut("/never"), comparing: .response),
        ParityCase("timeout on a server that never answers", timingOut("/never"), comparing: .response),
        ParityCase("timeout mid-body", timingOut("/stall/1000"), comparing: .response),
        // Well within: the wait for one of the shared transport's connections counts too, as
        // it does for URLSession, and a busy machine once delayed a 0.2 s answer past 5 s.
        ParityCase("response within the timeout", timingOut("/delay/0.2", after: 120)),
        // FoundationNetworking alone times a 0 s timeout out at once and traps on the others.
        ParityCase("timeout of 0 is the default", timingOut("/delay/0.2", after: 0)),
        // FoundationNetworking alone truncates to whole seconds: 0.25 and 0.5 s at once, 1.5 s as 1 s.
        ParityCase("sub-second timeout of 0.25 s", timingOut("/never", after: 0.25), comparing: .response),
        ParityCase("sub-second timeout of 0.5 s", timingOut("/never", after: 0.5), comparing: .response),
        ParityCase("fractional timeout of 1.5 s", timingOut("/never", after: 1.5), comparing: .response),
        ParityCase("response within a sub-second timeout", timingOut("/delay/0.1", after: 0.9)),
        ParityCase("infinite timeout", timingOut("/get", after: .infinity)),
        ParityCase("negative timeout", timingOut("/get", after: -1)),
        ParityCase("NaN timeout", timingOut("/get", after: .nan)),
    ]

    private static let serverFaults: [ParityCase] = [
        ParityCase("server closes before answering", .get("/close"), comparing: .response),
        ParityCase(
            "server closes mid-body", .get("/truncate/100000"), comparing: .response
        ),
    ]

    private static let refusedBeforeSending: [ParityCase] = [
        ParityCase("CR LF in a header value", .get("/get", headers: [("X-Bad", "a\r\nX-Injected: 1")])),
        ParityCase("LF in a header value", .get("/get", headers: [("X-Bad", "a\nb")])),
        ParityCase("NUL in a header value", .get("/get", headers: [("X-Bad", "a\u{0}b")])),
        ParityCase("space in a header name", .get("/get", headers: [("X Bad", "1")])),
        ParityCase("method that is not a token", .send("GET X", "/get")),
        ParityCase("unsupported scheme gopher", RequestSpec(method: "GET", location: .literal("gopher://127.0.0.1:1/file"))),
        ParityCase(
            "unsupported scheme ftp", RequestSpec(method: "GET", location: .literal("ftp://127.0.0.1:1/file"))
        ),
        ParityCase("malformed URL without a host", RequestSpec(method: "GET", location: .literal("http:///get"))),
        ParityCase("URL with only a scheme", RequestSpec(method: "GET", location: .literal("http:"))),
    ]

    private static func timingOut(_ pathAndQuery: String, after seconds: TimeInterval = 1) -> RequestSpec {
        var spec = RequestSpec.get(pathAndQuery)
        spec.timeout = seconds
        return spec
    }
}
