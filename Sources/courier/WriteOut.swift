import Courier
import Foundation

/// `-w FORMAT` / `--write-out FORMAT`: curl's syntax for what to print after the body, over
/// the variables Courier can fill. Parsed as curl's `tool_writeout.c` does: `%{name}` is a
/// variable, `%%` a percent sign, `\n`, `\r` and `\t` what they are in C; anything else (a `%`
/// or `\` before another character, a `%{` never closed) is written as it stands, and an unknown
/// variable writes nothing and a warning on stderr.
struct WriteOut {
    let format: String

    /// What one run measured, for the variables.
    struct Values {
        /// The final response's status; nil when no response arrived (written as `000`).
        var statusCode: Int?
        /// The final response's protocol, e.g. `HTTP/1.1`; nil when the transport does not say.
        var httpVersion: String?
        /// The URL last requested: the final response's, or the one that failed.
        var effectiveURL: URL?
        /// What the engine measured of each hop, first to last, as the response head (or the
        /// failure's `URLError`) carried it; empty when nothing was measured.
        var hops: [ExchangeMetrics] = []
        /// Measured by the tool around the whole exchange, for `time_total` when the engine did
        /// not measure the last hop to its end (a body cut short by `--max-filesize`).
        var total: Duration?
        /// Body bytes the tool received, for `size_download` when the engine counted none.
        var receivedBodyBytes: Int?
        /// Attempts made before the last (`--retry`); as in curl, the hops are the last one's.
        var retries = 0
        /// Where the final response came from (`--cache`); nil when none arrived.
        var source: ResponseSource?

        init() {}

        /// The values of an exchange the engine answered with `head`, measured as `metrics`
        /// (the head's, or a streamed body's once it ended). `httpVersion` is nil when the
        /// engine does not say which it spoke.
        init(head: ResponseHead, metrics: ExchangeMetrics, httpVersion: String?) {
            statusCode = head.statusCode
            self.httpVersion = httpVersion
            effectiveURL = head.url
            hops = Self.hops(of: metrics)
            retries = metrics.attempts.count
            source = metrics.source
        }

        /// The values of an exchange to `url` that failed with `error`: the phases the engine
        /// measured before the failure, when the error carries them.
        init(failure error: any Error, url: URL) {
            effectiveURL = url
            hops = (error as? URLError)?.exchangeMetrics.map(Self.hops(of:)) ?? []
            retries = (error as? URLError)?.attemptCount.map { $0 - 1 } ?? 0
        }

        /// Each hop's own metrics, the redirects before the last one first.
        private static func hops(of metrics: ExchangeMetrics) -> [ExchangeMetrics] {
            var last = metrics
            last.redirects = []
            last.attempts = []
            return metrics.redirects + [last]
        }
    }

    /// The text to write and the unknown variables to warn about, in order.
    func render(_ values: Values) -> (text: String, unknown: [String]) {
        var out = ""
        var unknown: [String] = []
        var rest = Substring(format)
        while let character = rest.first {
            let next = rest.dropFirst().first
            if character == "%", let next {
                if next == "%" {
                    out += "%"
                    rest = rest.dropFirst(2)
                } else if next == "{" {
                    let afterBrace = rest.dropFirst(2)
                    guard let close = afterBrace.firstIndex(of: "}") else {
                        out += "%{"
                        rest = afterBrace
                        continue
                    }
                    let name = String(afterBrace[..<close])
                    if let value = Self.value(of: name, in: values) {
                        out += value
                    } else {
                        unknown.append(name)
                    }
                    rest = afterBrace[afterBrace.index(after: close)...]
                } else {
                    out += "%\(next)"
                    rest = rest.dropFirst(2)
                }
            } else if character == "\\", let next {
                switch next {
                case "n": out += "\n"
                case "r": out += "\r"
                case "t": out += "\t"
                default: out += "\\\(next)"
                }
                rest = rest.dropFirst(2)
            } else {
                out.append(character)
                rest = rest.dropFirst()
            }
        }
        return (out, unknown)
    }

    /// The variables, as the curl CLI writes them; nil for a name curl would not know either.
    /// A value the transport did not measure is written as curl writes one it has not got:
    /// 0 for times, sizes and ports, an empty address.
    static func value(of name: String, in values: Values) -> String? {
        let hops = values.hops
        let last = hops.last
        switch name {
        case "http_code", "response_code":
            return values.statusCode.map { String(format: "%03d", $0) } ?? "000"
        case "http_version":
            return values.httpVersion.map(versionNumber) ?? "0"
        // libcurl adds up each phase over the hops it follows; so does this.
        case "time_namelookup": return seconds(sum(hops, \.nameLookup))
        case "time_connect": return seconds(sum(hops, \.connect))
        case "time_appconnect": return seconds(sum(hops, \.secureConnect))
        case "time_pretransfer": return seconds(sum(hops, \.requestSent))
        case "time_starttransfer": return seconds(sum(hops, \.firstByte))
        case "time_redirect": return seconds(sum(hops.dropLast(), \.untilLeft))
        // libcurl's total runs over every hop it follows.
        case "time_total": return seconds(last?.total.map { $0 + (sum(hops.dropLast(), \.untilLeft) ?? .zero) } ?? values.total)
        // libcurl counts the final hop's body as it came on the wire, and the heads of every
        // hop; an engine that sees only the decoded body (URLSession) counts that.
        case "size_download":
            return String(last?.responseBodyBytes ?? last?.decodedBodyBytes ?? values.receivedBodyBytes ?? 0)
        case "size_header": return String(hops.reduce(0) { $0 + ($1.responseHeaderBytes ?? 0) })
        case "size_request": return String(hops.reduce(0) { $0 + ($1.requestBytes ?? 0) })
        case "num_redirects": return String(max(0, hops.count - 1))
        case "num_connects": return String(hops.count { $0.connectionReused == false })
        case "num_retries": return String(values.retries)
        case "remote_ip": return host(of: last?.remoteAddress)
        case "remote_port": return port(of: last?.remoteAddress)
        case "local_ip": return host(of: last?.localAddress)
        case "local_port": return port(of: last?.localAddress)
        case "url_effective": return values.effectiveURL?.absoluteString ?? ""
        // Not curl's, which has no cache: network, cache, or revalidated (after a 304).
        case "response_source": return values.source?.description ?? ""
        default: return nil
        }
    }

    /// The names ``value(of:in:)`` knows, for `courier help request`.
    static let variables = [
        "http_code", "response_code", "http_version", "time_namelookup", "time_connect", "time_appconnect",
        "time_pretransfer", "time_starttransfer", "time_redirect", "time_total", "size_download",
        "size_header", "size_request", "num_redirects", "num_connects", "num_retries", "remote_ip", "remote_port",
        "local_ip", "local_port", "url_effective", "response_source",
    ]

    /// `HTTP/1.1` → `1.1`, `HTTP/2` → `2`, as curl writes `http_version`.
    private static func versionNumber(_ version: String) -> String {
        version.hasPrefix("HTTP/") ? String(version.dropFirst(5)) : version
    }

    private static func sum<Hops: Sequence<ExchangeMetrics>>(_ hops: Hops, _ phase: KeyPath<ExchangeMetrics, Duration?>) -> Duration? {
        hops.reduce(nil) { total, hop in hop[keyPath: phase].map { (total ?? .zero) + $0 } ?? total }
    }

    /// Seconds with six decimals, as curl writes times (`%u.%06u`); 0.000000 when unknown.
    static func seconds(_ duration: Duration?) -> String {
        let (whole, attoseconds) = (duration ?? .zero).components
        guard whole >= 0, attoseconds >= 0 else { return "0.000000" }
        return String(format: "%lld.%06lld", whole, attoseconds / 1_000_000_000_000)
    }

    /// `127.0.0.1:80` → `127.0.0.1`, `[::1]:80` → `::1`.
    private static func host(of address: String?) -> String {
        guard let address else { return "" }
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            return String(address[address.index(after: address.startIndex)..<close])
        }
        return String(address.split(separator: ":", maxSplits: 1).first ?? "")
    }

    private static func port(of address: String?) -> String {
        guard let address, let colon = address.lastIndex(of: ":"), !address.hasSuffix("]") else { return "0" }
        return String(Int(address[address.index(after: colon)...]) ?? 0)
    }
}

extension ExchangeMetrics {
    /// How long the exchange ran before the client moved on: its total, or for a streamed
    /// redirect, whose body was dropped at the head before the engine could measure its end,
    /// the first byte.
    fileprivate var untilLeft: Duration? { total ?? firstByte }
}
