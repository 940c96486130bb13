#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// Everything one exchange puts on the wire, decided on the caller's task before the curl
/// thread sees it, so that thread only copies settings into an easy handle.
struct CurlRequestPlan: Sendable {
    /// How the method and body map onto libcurl's options.
    enum Shape: Sendable, Equatable {
        /// `CURLOPT_HTTPGET`, plus `CURLOPT_CUSTOMREQUEST` for a method other than GET.
        case withoutBody(customMethod: String?)
        /// `CURLOPT_NOBODY`: libcurl sends HEAD and reads no body.
        case head
        /// `CURLOPT_POST` with the body, plus `CURLOPT_CUSTOMREQUEST` for a method other than POST.
        case withBody(customMethod: String?)
    }

    var url: URL
    /// `url`'s scheme in lowercase, read once for the several decisions that turn on it.
    var scheme: String?
    /// What libcurl is given as `CURLOPT_URL`: `url`, or for an `http+unix` URL the `http` URL
    /// sent over its socket.
    var wireURL: URL
    /// `CURLOPT_UNIX_SOCKET_PATH`: the socket an `http+unix` URL names, else the transport's.
    var unixSocketPath: String?
    /// The transport's proxy, which a failure is told against (see ``CurlError/proxyFailure(_:proxy:)``).
    var proxy: CurlTransport.Proxy
    /// The transport's DNS-over-HTTPS server, which a name that did not resolve is told
    /// against (see ``CurlError/dohFailure(code:libcurlSaid:plan:)``).
    var dohURL: URL?
    var shape: Shape
    var body: Data
    /// A body produced while it is sent: an ``/Courier/RequestBody`` given to the streaming API,
    /// or `URLRequest.httpBodyStream`; nil for a `Data` body or none.
    var upload: RequestBody?
    /// `CURLOPT_POSTFIELDSIZE_LARGE` for a body: the `Data`'s size or, for a streamed upload,
    /// its length or the request's own `Content-Length`; -1 (unknown) sends it chunked, as
    /// URLSession does.
    var uploadLength: Int64
    /// Told how many bytes of `body` libcurl has taken, when an ``/Courier/RequestBody`` of bytes
    /// is observed for progress (a streamed upload's reader reports its own reads).
    var bodyObserver: (@Sendable (Int64) -> Void)?
    /// What decides the `CURLOPT_HTTPHEADER` lines; the lines themselves are built once per
    /// distinct set (see ``CurlHeaderListCache``).
    var headers: Headers
    /// The idle timeout (``/Courier/Policies/idleTimeout``, or the request's own
    /// `timeoutInterval`): the longest silence allowed, the wait for a connection
    /// included. Enforced through ``CurlTransfer/overdueError(at:)`` by the progress callback and
    /// the event loop, to within a few hundred milliseconds.
    var idleTimeout: Duration
    /// The same in whole seconds, rounded up, for `CURLOPT_LOW_SPEED_TIME` below 1 byte/s: a
    /// backstop that also makes libcurl wake its loop at least once a second while idle, so the
    /// progress callback runs. On its own it would fire late, since libcurl averages the speed
    /// over the last five seconds: a server stalling after a burst went unnoticed for ~6 s.
    var idleTimeoutSeconds: Int
    var connectTimeoutMilliseconds: Int
    /// Whether the request may share a connection with others at once, and so waits for one
    /// being opened (`CURLOPT_PIPEWAIT`) and counts against the streams of the group's
    /// connections rather than the connections themselves (see ``CurlAdmission``).
    var multiplexes: Bool
}

extension CurlRequestPlan {
    /// FoundationNetworking sends `Accept-Language` with the current locale's language code.
    static let urlSessionAcceptLanguage: String? = Locale.current.language.languageCode?.identifier

    /// Builds the plan for `request`, which has passed `validateForSending()` and has an
    /// http or https URL. `upload`, when given, replaces the request's own body.
    init(request: URLRequest, url: URL, upload: RequestBody? = nil, configuration: borrowing CurlTransport.Configuration) {
        let method = request.httpMethod ?? "GET"
        var body = request.httpBody ?? Data()
        var stream = request.httpBodyStream.map { RequestBody.inputStream($0, length: Self.declaredLength(request)) }
        if let upload {
            if case .data(let data) = upload.source {
                body = data
                stream = nil
                bodyObserver = upload.readObserver
            } else {
                body = Data()
                stream = upload
            }
        }
        self.url = url
        scheme = url.lowercasedScheme
        wireURL = url
        unixSocketPath = configuration.unixSocketPath
        proxy = configuration.proxy
        dohURL = configuration.dohURL
        self.body = body
        self.upload = stream
        uploadLength = stream.map { $0.length ?? Self.declaredLength(request) ?? -1 } ?? Int64(body.count)
        switch method {
        case "HEAD": shape = .head
        case "GET" where body.isEmpty && stream == nil: shape = .withoutBody(customMethod: nil)
        // URLSession sends `Content-Length: 0` for every other method without a body; libcurl
        // does that for a POST of zero bytes.
        case "POST": shape = .withBody(customMethod: nil)
        default: shape = .withBody(customMethod: method)
        }
        let sendsBody = if case .withBody = shape { true } else { false }
        headers = Headers(
            fields: request.allHTTPHeaderFields ?? [:],
            sendsBody: sendsBody,
            // The request's own body only: URLSessionTransport sends an upload through an
            // upload task, which FoundationNetworking never labels.
            keepsFormContentType: method == "POST" && upload == nil && (!body.isEmpty || stream != nil),
            userAgent: configuration.policies.userAgent
        )
        // validateForSending() refused negatives and NaN, and milliseconds(_:) clamps the rest,
        // infinity included, to URLRequest.maximumTimeoutInterval.
        let interval = request.idleTimeout(under: configuration.policies)
        let idleMilliseconds = Self.milliseconds(interval)
        idleTimeout = .milliseconds(idleMilliseconds)
        idleTimeoutSeconds = (idleMilliseconds + 999) / 1000
        // A connect timeout that is not a positive number (0, negative, NaN) bounds nothing.
        let connect = configuration.policies.connectTimeout.flatMap { $0 > 0 ? min($0, interval) : nil } ?? interval
        connectTimeoutMilliseconds = Self.milliseconds(connect)
        multiplexes = configuration.httpVersion.multiplexes(scheme: scheme)
    }

    /// The request's `Content-Length` when it is a plain decimal number.
    private static func declaredLength(_ request: URLRequest) -> Int64? {
        guard let text = request.value(forHTTPHeaderField: "Content-Length"),
              !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int64(text)
    }

    /// `seconds` in whole milliseconds for libcurl, within `1...Int32.max`: libcurl reads 0 as
    /// "no timeout", so anything shorter becomes 1 ms, and NaN becomes the longest timeout.
    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        guard !seconds.isNaN else { return Int(Int32.max) }
        return Int((seconds * 1000).rounded(.up).clamped(to: 1...Double(Int32.max)))
    }

    /// The `CURLOPT_HTTPHEADER` lines of this plan.
    var headerLines: [String] { headers.lines }
}

extension CurlRequestPlan {
    /// A request's header fields and the few facts that turn them into libcurl's header lines.
    /// Two requests with equal `Headers` send the same header lines, so their list is shared.
    struct Headers: Hashable, Sendable {
        var fields: [String: String]
        /// The request goes through CURLOPT_POST (every method but GET and HEAD), for which
        /// libcurl adds `Expect: 100-continue` to large bodies and labels every body a form.
        var sendsBody: Bool
        /// URLSession labels a POST's own body as a form too, when it is a non-empty
        /// `httpBody` or any `httpBodyStream`; every other body, an upload's among them, loses
        /// the label.
        var keepsFormContentType: Bool
        /// ``/Courier/Policies/userAgent``; nil for the one both transports send by default
        /// (``/Courier/DefaultUserAgent``).
        var userAgent: String?

        /// `CURLOPT_HTTPHEADER` lines in libcurl's syntax: the request's own headers (`Name: value`,
        /// `Name;` for an empty value), then the ones FoundationNetworking adds when the request
        /// has none of that name, then suppressions (`Name:`) of libcurl defaults URLSession does
        /// not send.
        var lines: [String] {
            var lines: [String] = []
            lines.reserveCapacity(fields.count + 5)
            var names = Set<String>()
            for (name, value) in fields {
                names.insert(name.lowercased())
                lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
            }
            // The value is evaluated only when the request lacks the header, so a request that
            // sets its own Accept-Language never pays for the locale (which reaches into ICU).
            func addUnlessSet(_ name: String, _ value: @autoclosure () -> String?) {
                guard !names.contains(name.lowercased()), let value = value() else { return }
                lines.append(value.isEmpty ? "\(name):" : "\(name): \(value)")
            }
            // URLSessionTransport sets the same User-Agent on the request itself, so
            // FoundationNetworking writes it among the request's own fields, before the two it
            // always adds; HTTP/1.1 keeps connections alive anyway.
            addUnlessSet("User-Agent", userAgent ?? DefaultUserAgent.value)
            addUnlessSet("Connection", "keep-alive")
            addUnlessSet("Accept-Language", CurlRequestPlan.urlSessionAcceptLanguage)
            // Suppressions only where libcurl would add the header: for GET and HEAD it adds
            // neither, and every line here costs libcurl a scan of its own headers per request.
            if sendsBody {
                // URLSession never waits for `100 Continue`; libcurl would send `Expect:
                // 100-continue` for large bodies and stall up to a second on servers that ignore it.
                addUnlessSet("Expect", "")
                if !keepsFormContentType {
                    addUnlessSet("Content-Type", "")
                }
            }
            // `Accept: */*` (libcurl's default, which URLSession leaves in) and `Accept-Encoding`
            // (from CURLOPT_ACCEPT_ENCODING "", i.e. every decoder the linked libcurl has, as
            // URLSession sends; see CurlFeatures) come from libcurl itself.
            return lines
        }
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
