import CourierParity

/// PARITY.md, generated from the catalogue so the page can never drift from what is tested.
enum ParityDocument {
    static let fileName = "PARITY.md"
    /// Set to `1` to write the page instead of checking it.
    static let writeVariable = "COURIER_WRITE_PARITY"

    static func markdown(for cases: [ParityCase]) -> String {
        let causes = knownCauses(in: cases)
        var lines = [
            "# Transport parity",
            "",
            "<!-- Generated from Tests/CourierParityTests; do not edit by hand.",
            "     Regenerate: \(writeVariable)=1 swift test --filter ParityDocument -->",
            "",
            "`URLSessionTransport` and `CurlTransport` are compared on **\(cases.count) cases**: each request is",
            "sent through both transports to Courier's test server, and the status code, headers, body,",
            "final URL and failure, and what the server received (method, target, headers, body), must",
            "match except as listed here. A listed difference that stops occurring fails the tests.",
            "Compare them on your own server with `parityReport(for:)` from the `CourierParity` product.",
            "",
            "Both run with the same policy layers (redirects, validation, error descriptions) over their",
            "engines, and both decode gzip, deflate, br and zstd within `Policies.maximumResponseBytes`,",
            "failing with `URLError(.dataLengthExceedsMaximum)` at once. What no case can show is what",
            "happens after that: `CurlTransport` stops decoding at the limit, while FoundationNetworking",
            "decodes a whole burst inside libcurl before any delegate sees it and takes a cancel only",
            "after, so it goes on decoding a compression bomb in the background, on the one work queue",
            "every URLSession of the process shares, until the bomb ends (see the Hostile servers article).",
            "",
            "One difference has no case here because it ends the process that meets it: a chunked",
            "response with trailer fields makes FoundationNetworking trap (\"Transfer completed, but",
            "there's no response\"), inside the libcurl call that completes the transfer, before any",
            "delegate or layer runs; `CurlTransport` returns the response. For servers that may send",
            "trailers, use `CurlTransport`.",
            "",
            "The streaming entry points (`stream(for:uploading:)`) are compared on the same terms. What",
            "no case can show is memory. `CurlTransport` pauses a transfer whose reader falls behind",
            "(`curl_easy_pause`), so a stream holds at most its `streamBufferSize` unread, whatever the",
            "body's size. FoundationNetworking cannot pause a transfer (`suspend()` lets it run on, or",
            "drops it and sends the request again on resume), so `URLSessionTransport` never pauses: a",
            "slow reader's unread bytes wait in memory, up to `URLSessionTransport.Configuration`'s",
            "`maximumUnreadBytes`, where the body fails with `URLError(.dataLengthExceedsMaximum)`; there",
            "a streamed body is also bounded as a whole by `Policies.maximumResponseBytes`, which",
            "`CurlTransport` applies to the bodies it collects only. For large bodies read slowly, use",
            "`CurlTransport`. Nor can a case show time under load: FoundationNetworking's `cancel()`,",
            "`resume()` and `dataTask(with:)` wait for a work queue that also serves every transfer, so",
            "with many fast endless bodies in flight on one session, cancels land late or not at all",
            "(`scripts/storms`, in the Hostile servers article). Under load it was also seen to hand a",
            "piece of a streamed body to its delegate only when the next piece arrived (an event of a",
            "server-sent event stream 10 s late in one full test run), so for events that must arrive",
            "the moment they are sent (`CourierSSE`), use `CurlTransport`.",
            "",
            "A download into a file (`download(for:)`, `download(for:to:)`) gives the same answer on",
            "both: the disk bounds it, not `Policies.maximumResponseBytes`, which bounds bodies kept in",
            "memory (`TransportFileTests` downloads past a lowered limit on each transport, where",
            "`data(for:)` of the same response fails). What differs is memory: `CurlTransport` holds its",
            "`streamBufferSize` whatever the size; `URLSessionTransport` holds what the file has not",
            "taken yet, little while the disk keeps up with the network, and fails the download past",
            "`maximumUnreadBytes`.",
            "",
            "One capability is refused rather than compared: a duplex body (`RequestBody.duplex`), whose",
            "response is read while the body is still being produced. FoundationNetworking writes a",
            "streamed body to a file before it sends it and hands over no response before the upload",
            "ends, so such a conversation would wait for ever; `URLSessionTransport` refuses it with",
            "`RequestError.unsupportedOption` before anything is sent, and",
            "`TransportCapabilities.streamsDuplex` says which transport has it. So is a connect",
            "timeout of its own (`Policies.connectTimeout`): FoundationNetworking's tasks have one",
            "timeout for silence, connecting included, so `URLSessionTransport` refuses a request under",
            "policies that set one, naming `CurlTransport`, before anything is sent",
            "(`TransportConnectTimeoutTests`); both bound connecting by `Policies.idleTimeout`.",
            "",
            "WebSockets are compared where both engines have them: `URLSessionTransport` opens one with",
            "`URLSessionWebSocketTask` only where the process's Foundation has WebSockets (Apple",
            "platforms; a Linux toolchain whose FoundationNetworking was built against a libcurl with",
            "them), which it asks of Foundation at run time. Elsewhere, as with Debian 12's toolchain, it",
            "refuses with `RequestError.unsupportedOption` naming `CurlTransport` before anything is",
            "sent; `WebSocketParityTests` runs an echo over both, or the echo and the refusal.",
            "",
            "## Known differences (\(causes.count))",
            "",
            "| Difference | Cases (field) |",
            "| --- | --- |",
        ]
        lines += causes.map { reason, occurrences in "| \(reason) | \(occurrences.joined(separator: "; ")) |" }
        lines += [
            "",
            "Where an echo route answers, the echo's `Content-Length` and body differ as a consequence;",
            "those are recorded in the catalogue too.",
            "",
            "## Headers never compared",
            "",
            "| Header | Reason |",
            "| --- | --- |",
        ]
        lines += IgnoredHeader.all.map { "| `\($0.name)` | \($0.reason) |" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each reason once, in catalogue order, with the cases and fields it explains.
    private static func knownCauses(in cases: [ParityCase]) -> [(reason: String, occurrences: [String])] {
        var causes: [(reason: String, occurrences: [String])] = []
        for parityCase in cases {
            for known in parityCase.knownDifferences where !known.isConsequence {
                let occurrence = "\(parityCase.name) (\(known.field))"
                if let index = causes.firstIndex(where: { $0.reason == known.reason }) {
                    causes[index].occurrences.append(occurrence)
                } else {
                    causes.append((known.reason, [occurrence]))
                }
            }
        }
        return causes
    }
}
