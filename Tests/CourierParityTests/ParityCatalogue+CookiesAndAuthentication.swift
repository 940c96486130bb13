extension ParityCatalogue {
    /// Both transports run with their default cookie policy, which stores nothing: a cookie set
    /// by the server is not sent back.
    static let cookiesAndAuthentication: [ParityCase] = [
        ParityCase("cookies set by the server are not stored", .get("/cookies/set?a=1&b=2")),
        ParityCase("Cookie header set by the request", .get("/cookies", headers: [("Cookie", "a=1; b=2")])),
        ParityCase("basic auth without credentials is challenged", .get("/basic-auth/user/pass")),
        ParityCase(
            "basic auth with credentials",
            .get("/basic-auth/user/pass", headers: [("Authorization", "Basic dXNlcjpwYXNz")])
        ),
        ParityCase(
            "basic auth with wrong credentials",
            .get("/basic-auth/user/pass", headers: [("Authorization", "Basic dXNlcjp3cm9uZw==")])
        ),
        ParityCase("credentials in the URL", RequestSpec(method: "GET", location: .literal("http://user:pass@{mainAuthority}/basic-auth/user/pass"))),
    ]
}
