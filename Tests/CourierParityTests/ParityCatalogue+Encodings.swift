extension ParityCatalogue {
    static let encodings: [ParityCase] = [
        ParityCase("unknown Content-Encoding", .get("/response-headers?Content-Encoding=x-unknown")),
        ParityCase("Content-Encoding identity", .get("/response-headers?Content-Encoding=identity")),
        ParityCase("gzip declared on a plain body", .get("/response-headers?Content-Encoding=gzip")),
        ParityCase("gzip response", .get("/gzip")),
        ParityCase("deflate response", .get("/deflate")),
        ParityCase("brotli response", .get("/brotli")),
        ParityCase("zstd response", .get("/zstd")),
        ParityCase("gzip inflating to 8 MiB", .get("/gzip-bomb/8")),
        ParityCase("HEAD of a gzip response", .send("HEAD", "/gzip")),
    ]
}
