import CZlib
import CourierTestServer
import Testing

/// `/bomb/{encoding}/{mib}`, read off the wire and decoded with each coding's own library.
@Suite(.timeLimit(.minutes(5))) struct BombRouteTests {
    static let encodings = ["gzip", "deflate", "br", "zstd"]

    @Test(arguments: encodings)
    func bombDecodesToExactlyItsSizeInZeros(encoding: String) async throws {
        let response = try await withServer { try await fetch($0, "/bomb/\(encoding)/16") }
        #expect(response.status == 200)
        #expect(response.value("Content-Encoding") == encoding)
        #expect(response.value("Content-Length") == "\(response.body.count)")
        #expect(response.value("Transfer-Encoding") == nil)
        let decoded = try #require(decode(response.body, encoding: encoding))
        #expect(decoded == Decoded(count: 16 << 20, isAllZeros: true, isComplete: true))
    }

    /// The wire size grows by one fixed unit per MiB, so a 10 GiB bomb is cheap to serve: about
    /// 10 MiB for gzip, and far less for the others.
    @Test(arguments: encodings)
    func wireSizeGrowsByOneUnitPerMebibyte(encoding: String) async throws {
        try await withServer { server in
            func length(_ mebibytes: Int) async throws -> Int {
                let head = try await fetch(server, "/bomb/\(encoding)/\(mebibytes)", method: "HEAD")
                return try #require(head.value("Content-Length").flatMap { Int($0) })
            }
            let (one, two, tenGiB) = (try await length(1), try await length(2), try await length(10240))
            #expect(tenGiB == one + 10239 * (two - one))
            #expect(tenGiB < 11 << 20)
        }
    }

    /// A 10 GiB bomb starts at once (nothing is compressed up front) and its first part
    /// decodes to zeros; decoding all of it would take the test far too long. 4 MiB is enough:
    /// decoding 64 MiB per coding in a debug build kept both threads that run Swift tasks busy
    /// for seconds and stalled the rest of the suite.
    @Test(arguments: encodings)
    func tenGibibyteBombStartsDecodingToZeros(encoding: String) async throws {
        try await withServer { server in
            try await RawConnection.with(server) { connection in
                try await connection.send("GET /bomb/\(encoding)/10240 HTTP/1.1\r\nHost: a\r\n\r\n")
                let head = try await connection.readHead()
                let length = try #require(head.value("Content-Length").flatMap { Int($0) })
                let start = try await connection.read(count: min(length, 64 * 1024))
                let decoded = try #require(decode(start, encoding: encoding, limit: 4 << 20))
                #expect(decoded.count >= 4 << 20)
                #expect(decoded.isAllZeros)
            }
        }
    }

    /// The gzip and deflate bombs are byte for byte what zlib writes when it compresses zeros
    /// in a streaming loop with a full flush after each MiB: one ordinary stream, not a trick.
    @Test(arguments: [("gzip", Int32(31)), ("deflate", Int32(15))])
    func zlibBombsAreWhatZlibWrites(encoding: String, windowBits: Int32) async throws {
        let response = try await withServer { try await fetch($0, "/bomb/\(encoding)/3") }
        #expect(response.body == zlibCompressedZeros(mebibytes: 3, windowBits: windowBits))
    }

    @Test(arguments: ["/bomb/lzma/1", "/bomb/gzip/0", "/bomb/gzip/2097153", "/bomb/zstd/x", "/bomb/gzip"])
    func badParametersGive400Or404(path: String) async throws {
        let response = try await withServer { try await fetch($0, path) }
        #expect(response.status == (path == "/bomb/gzip" ? 404 : 400))
    }

    private func decode(_ body: [UInt8], encoding: String, limit: Int = .max) -> Decoded? {
        switch encoding {
        case "gzip": Decoders.inflate(body, windowBits: 31, limit: limit)
        case "deflate": Decoders.inflate(body, windowBits: 15, limit: limit)
        case "br": Decoders.brotli(body, limit: limit)
        case "zstd": Decoders.zstd(body, limit: limit)
        default: nil
        }
    }
}

/// zlib at its best compression, given `mebibytes` MiB of zeros one MiB at a time with a full
/// flush after each, then finished: the stream a streaming server would write.
private func zlibCompressedZeros(mebibytes: Int, windowBits: Int32) -> [UInt8]? {
    var stream = z_stream()
    let initStatus = deflateInit2_(
        &stream, Z_BEST_COMPRESSION, Z_DEFLATED, windowBits, 9, Z_DEFAULT_STRATEGY,
        zlibVersion(), Int32(MemoryLayout<z_stream>.size)
    )
    guard initStatus == Z_OK else { return nil }
    defer { deflateEnd(&stream) }
    var zeros = [UInt8](repeating: 0, count: 1 << 20)
    var scratch = [UInt8](repeating: 0, count: 1 << 20)
    var output: [UInt8] = []
    for flush in Array(repeating: Z_FULL_FLUSH, count: mebibytes) + [Z_FINISH] {
        let input = flush == Z_FINISH ? 0 : zeros.count
        let status = zeros.withUnsafeMutableBufferPointer { inBuffer in
            scratch.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(input)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                let status = deflate(&stream, flush)
                output += outBuffer[..<(outBuffer.count - Int(stream.avail_out))]
                return status
            }
        }
        guard status == (flush == Z_FINISH ? Z_STREAM_END : Z_OK), stream.avail_in == 0 else { return nil }
    }
    return output
}
