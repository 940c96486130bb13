extension ParityCatalogue {
    static let queries: [ParityCase] = [
        ParityCase("fragment after the path", .get("/anything?a=1#section")),
        ParityCase("16 KiB query", .get("/anything?q=" + String(repeating: "x", count: 16 << 10))),
        ParityCase("query with reserved characters", .get("/get?a=1&b=%2F%3F%23%26&c=a+b&d=%3D")),
        ParityCase("query with percent-encoded non-ASCII", .get("/get?name=%C3%A9l%C3%A8ve&emoji=%F0%9F%93%A6")),
        ParityCase("query with repeated names", .get("/get?a=1&a=2&a=3")),
        ParityCase("empty query after ?", .get("/get?")),
        ParityCase("query with unencoded sub-delimiters", .get("/get?list=a,b;c&path=/x/y&q=:@!$'()*")),
        ParityCase("path with percent-encoded space and non-ASCII", .get("/anything/a%20b/%C3%A9")),
        ParityCase(
            "URL with a fragment",
            RequestSpec(method: "GET", location: .literal("{main}/get?a=1#section"))
        ),
    ]
}
