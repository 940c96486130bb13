import Testing
@testable import CourierCurl

/// How a transfer keeps the header lines libcurl hands over, without libcurl.
@Suite struct CurlHeadCaptureTests {
    private func feed(_ lines: [String], to capture: inout CurlHeadCapture) -> [String] {
        lines.map { line in
            Array(line.utf8).withUnsafeBytes { bytes in
                switch capture.receive(bytes) {
                case .kept: "kept"
                case .headComplete: "headComplete"
                case .tooLarge(let error): "tooLarge(\(error.kind))"
                }
            }
        }
    }

    @Test func anInterimResponseIsDroppedAndTheFinalHeadKept() {
        var capture = CurlHeadCapture(maximumBytes: 1_000, streams: false)
        let outcomes = feed(["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "A: b\r\n", "\r\n"], to: &capture)
        #expect(outcomes == Array(repeating: "kept", count: 5))
        #expect(String(decoding: capture.takeHeaderBytes(), as: UTF8.self) == "HTTP/1.1 200 OK\r\nA: b\r\n\r\n")
        #expect(capture.byteCount == 50)
    }

    @Test func aStreamedBodysHeadIsCompleteAtItsEmptyLineAndTrailersFollow() {
        var capture = CurlHeadCapture(maximumBytes: 1_000, streams: true)
        let outcomes = feed(
            ["HTTP/1.1 103 Early Hints\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "\r\n", "Checksum: abc\r\n", "\r\n"], to: &capture
        )
        #expect(outcomes == ["kept", "kept", "kept", "headComplete", "kept", "kept"])
        #expect(capture.isHandedOver)
        #expect(capture.trailerFields == ["Checksum": "abc"])
    }

    @Test func headersPastTheLimitStopTheTransfer() {
        var capture = CurlHeadCapture(maximumBytes: 20, streams: false)
        #expect(feed(["HTTP/1.1 200 OK\r\n", "Long: header\r\n"], to: &capture) == ["kept", "tooLarge(headersTooLarge)"])
    }
}
