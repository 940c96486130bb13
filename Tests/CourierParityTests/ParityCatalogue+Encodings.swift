extension ParityCatalogue {
    static let encodings: [ParityCase] = [
        ParityCase("gzip response", .get("/gzip")),
        ParityCase("deflate response", .get("/deflate")),
        ParityCase("brotli response", .get("/brotli")),
        ParityCase("zstd response", .get("/zstd")),
        ParityCase("gzip inflating to 8 MiB", .get("/gzip-bomb/8")),
        ParityCase("HEAD of a gzip response", .send("HEAD", "/gzip")),
    ]
}
