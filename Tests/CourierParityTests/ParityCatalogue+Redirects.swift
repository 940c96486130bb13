import CourierParity
import Foundation

extension ParityCatalogue {
    static let redirects: [ParityCase] =
        chains + kinds + crossOrigin + [
            ParityCase("redirect loop", .get("/redirect-loop")),
            ParityCase(
                "redirect to an unsupported scheme", .get("/redirect-to?url=ftp://127.0.0.1/file")
            ),
            ParityCase("redirect without Location", .get("/status/300")),
        ]

    private static let chains: [ParityCase] = [
        ParityCase("relative redirect chain", .get("/relative-redirect/3")),
        ParityCase("absolute redirect chain", .get("/absolute-redirect/3")),
        ParityCase("redirect to a relative path without slash", .get("/redirect-to?url=get%3Fvia%3Drelative")),
        ParityCase("redirect to a Location with a space", .get("/redirect-to?url=/anything%3Fq%3Da%20b")),
        ParityCase("redirect to a Location with raw UTF-8", .get("/redirect-to?url=/anything/%C3%A9")),
        ParityCase("redirect to a protocol-relative Location", .get("/redirect-to?url=//{mainAuthority}/anything")),
        ParityCase("redirect keeping the query", .get("/redirect-to?url=/get%3Fa%3D1%26b%3D%25C3%25A9")),
        ParityCase("16 redirects", .get("/redirect/16")),
        ParityCase("17 redirects", .get("/redirect/17")),
        ParityCase("20 redirects, the limit", .get("/redirect/20")),
        ParityCase("21 redirects, past the limit", .get("/redirect/21")),
    ]

    /// Each redirect status after a POST with a body: 301/302/303 turn it into a GET without
    /// the body; 307/308 keep the method and body.
    private static let kinds: [ParityCase] = [301, 302, 303, 307, 308].map { code in
        ParityCase(
            "POST redirected by \(code)",
            .send("POST", "/redirect-to?url=/anything/after-\(code)&status_code=\(code)", body: Data("payload".utf8),
                  headers: [("Content-Type", "text/plain")])
        )
    } + [
        ParityCase(
            "HEAD redirected by 303", .send("HEAD", "/redirect-to?url=/get&status_code=303")
        ),
        ParityCase(
            "PUT redirected by 302", .send("PUT", "/redirect-to?url=/anything&status_code=302", body: Data("put".utf8))
        ),
    ]

    private static let crossOrigin: [ParityCase] = [
        ParityCase("cross-port redirect", .get("/redirect-to?url={other}/get"), receivedBy: .other),
        ParityCase(
            "cross-port redirect carrying Authorization",
            .get("/redirect-to?url={other}/headers", headers: [("Authorization", "Bearer secret")]),
            receivedBy: .other
        ),
        ParityCase(
            "cross-port redirect carrying Cookie",
            .get("/redirect-to?url={other}/headers", headers: [("Cookie", "session=secret")]),
            receivedBy: .other
        ),
        ParityCase(
            "same-origin redirect keeps Authorization",
            .get("/redirect-to?url=/headers", headers: [("Authorization", "Bearer secret")])
        ),
    ]
}
