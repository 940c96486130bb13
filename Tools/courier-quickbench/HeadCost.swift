#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import HTTPTypes

/// `--heads`: what it costs to turn one received head block into a response value and read two
/// fields from it, for the three shapes an engine could answer with: Courier's `ResponseHead`
/// (the block kept as bytes, fields read on demand), swift-http-types' `HTTPResponse` (every
/// field parsed into an `HTTPField`) and Foundation's `HTTPURLResponse`. The block is a small
/// nginx response; the line splitting the other two need is the same code for both.
func runHeadCost(rounds: Int) {
    let block = Array((
        "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Wed, 25 Nov 2026 02:50:00 GMT\r\n"
            + "Content-Type: application/json\r\nContent-Length: 13\r\nConnection: keep-alive\r\n"
            + "ETag: \"6743e2b8-d\"\r\nAccept-Ranges: bytes\r\n\r\n"
    ).utf8)
    guard let url = URL(string: "http://127.0.0.1:8080/small") else { return }
    let shapes: [(String, () -> Int)] = [
        ("Courier ResponseHead (bytes, read on demand)", {
            let head = ResponseHead(statusCode: 200, headerFields: HeaderFields(headBlock: block), url: url)
            return (head.value(forHTTPHeaderField: "Content-Type")?.utf8.count ?? 0)
                + (head.value(forHTTPHeaderField: "Content-Length")?.utf8.count ?? 0)
        }),
        ("swift-http-types HTTPResponse (fields parsed)", {
            var fields = HTTPFields()
            for (name, value) in headLines(block) {
                if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
            }
            let response = HTTPResponse(status: 200, headerFields: fields)
            return (response.headerFields[.contentType]?.utf8.count ?? 0) + (response.headerFields[.contentLength]?.utf8.count ?? 0)
        }),
        ("Foundation HTTPURLResponse", {
            var fields: [String: String] = [:]
            for (name, value) in headLines(block) { fields[name] = value }
            let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields)
            return (response?.value(forHTTPHeaderField: "Content-Type")?.utf8.count ?? 0)
                + (response?.value(forHTTPHeaderField: "Content-Length")?.utf8.count ?? 0)
        }),
    ]
    let calls = 200_000
    var results: [String: [Double]] = [:]
    for round in 0..<(rounds + 1) {
        for (name, make) in round.isMultiple(of: 2) ? shapes : shapes.reversed() {
            var read = 0
            let start = ContinuousClock.now
            for _ in 0..<calls { read &+= make() }
            let elapsed = start.duration(to: .now)
            precondition(read == calls * 18, "\(name) read \(read / calls) bytes of two fields")
            // Round 0 warms up.
            if round > 0 { results[name, default: []].append(nanoseconds(elapsed) / Double(calls)) }
        }
    }
    print("One small nginx head to a response value, then Content-Type and Content-Length read (median of \(rounds) rounds of \(calls)):")
    for (name, _) in shapes {
        let sorted = (results[name] ?? []).sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        print("  \(name): \(Int(median.rounded())) ns")
    }
}

private func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

/// The `Name: value` lines of a head block as strings, the status line skipped.
private func headLines(_ block: [UInt8]) -> [(String, String)] {
    var lines: [(String, String)] = []
    var start = 0
    var index = 0
    var first = true
    while index + 1 < block.count {
        guard block[index] == 0x0D, block[index + 1] == 0x0A else {
            index += 1
            continue
        }
        let line = block[start..<index]
        if !first, let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            var valueStart = colon + 1
            while valueStart < line.endIndex, line[valueStart] == 0x20 { valueStart += 1 }
            lines.append((String(decoding: line[..<colon], as: UTF8.self), String(decoding: line[valueStart...], as: UTF8.self)))
        }
        first = false
        index += 2
        start = index
    }
    return lines
}
