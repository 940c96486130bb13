#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// The `-i` block: status line, header fields, blank line, in the wire's CRLF form.
struct IncludedHead {
    /// The version the transport spoke: what the curl engine reports, HTTP/1.1 from URLSession,
    /// which does not.
    var httpVersion: HTTPVersion
    var statusCode: Int
    var fields: [(name: String, value: String)]

    init(_ head: ResponseHead) {
        httpVersion = head.httpVersion
        statusCode = head.statusCode
        // One line per name, repeated values joined, as URLSession reports them, so both
        // transports write the same block; sorted, since URLSession keeps no arrival order.
        fields = head.headerFields.joined.map { ($0.key, $0.value) }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// HTTP/2 has no reason phrase, so as curl writes it: `HTTP/2 200`.
    var statusLine: String {
        let reason = httpVersion.major >= 2 ? "" : Self.reasonPhrases[statusCode].map { " " + $0 } ?? ""
        return "\(httpVersion) \(statusCode)\(reason)"
    }

    var bytes: Data {
        var text = statusLine + "\r\n"
        for field in fields { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Data(text.utf8)
    }

    /// RFC 9110's reason phrases. A transport does not pass the server's own phrase on, so the
    /// standard one stands in; unknown codes get none.
    static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
        412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 425: "Too Early", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 511: "Network Authentication Required",
    ]
}
