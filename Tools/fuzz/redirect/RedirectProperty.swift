#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierFuzzSupport
import Foundation

/// Input, byte by byte: the policy (limit, downgrades, an extra sensitive name), the request
/// (origin, method, which headers, in which case, which body), the status code, the redirects
/// so far, whether a Location is there; the rest of the input is the Location itself.
@Sendable func redirectProperty(_ bytes: [UInt8]) -> String? {
    var input = FuzzInput(bytes)
    var policy = RedirectPolicy(
        maximumRedirects: input.pick([0, 1, 2, 5, 20, -1]),
        allowsInsecureRedirects: input.bool()
    )
    let extraSensitive = input.bool()
    if extraSensitive { policy.sensitiveHeaderNames = ["X-Api-Key"] }

    let origin = input.pick(RedirectCase.origins)
    guard let url = URL(string: origin + input.pick(["/", "/a/b?q=1", "/a/b/", "", "/%7Euser/x#frag"])) else {
        return "the fuzz target's own origin \(origin) is not a URL"
    }
    var request = URLRequest(url: url)
    request.httpMethod = input.pick(["GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "post"])
    let headerBits = input.byte()
    let uppercase = input.bool()
    for (index, name) in RedirectCase.headerNames.enumerated() where headerBits & (1 << index) != 0 {
        request.setValue("secret-\(index)", forHTTPHeaderField: uppercase ? name.uppercased() : name.lowercased())
    }
    var upload: RequestBody?
    switch input.byte() % 4 {
    case 1: request.httpBody = Data("body".utf8)
    case 2: upload = .data(Data("upload".utf8))
    case 3: upload = .stream(AsyncStream<Data> { $0.finish() })
    default: break
    }
    let statusCode = input.pick([301, 302, 303, 307, 308, 200, 300, 304, 305, 306, 399, 101])
    let redirectsSoFar = Int(input.byte() % 24)
    let location: String? = input.bool() ? String(decoding: input.rest(), as: UTF8.self) : nil

    let hadUpload = upload != nil
    let uploadWasReplayable = upload?.isReplayable ?? true
    let decision = policy.decision(
        after: request, uploading: &upload, statusCode: statusCode, location: location, redirectsSoFar: redirectsSoFar
    )
    let context = "\(request.httpMethod ?? "GET") \(url.absoluteString), \(statusCode), Location \(location.debugDescription), \(redirectsSoFar) so far"

    // Without an upload, the public entry point must decide the same.
    if !hadUpload {
        let plain = policy.decision(after: request, statusCode: statusCode, location: location, redirectsSoFar: redirectsSoFar)
        if plain != decision { return "\(context): the two entry points disagree" }
    }

    switch decision {
    case .deliver:
        return nil
    case .fail(let code, let message):
        if message.isEmpty { return "\(context): failed with \(code.rawValue) and no message" }
        if code == .httpTooManyRedirects, redirectsSoFar < policy.maximumRedirects {
            return "\(context): too many redirects after \(redirectsSoFar) of \(policy.maximumRedirects)"
        }
        return nil
    case .follow(let next):
        return RedirectCase(
            policy: policy, request: request, next: next, statusCode: statusCode, redirectsSoFar: redirectsSoFar,
            upload: upload, hadUpload: hadUpload, uploadWasReplayable: uploadWasReplayable
        ).problem(context)
    }
}

/// A followed redirect, checked against the safety and method rules.
private struct RedirectCase {
    /// Origins that differ by scheme, host case, explicit default port and port.
    static let origins = [
        "http://a.example", "https://a.example", "http://a.example:8080", "https://A.example:443",
        "http://b.example:80", "https://b.example", "http://127.0.0.1:8080", "https://[::1]",
    ]
    static let headerNames = ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key", "Content-Type", "Accept"]

    let policy: RedirectPolicy
    let request: URLRequest
    let next: URLRequest
    let statusCode: Int
    let redirectsSoFar: Int
    let upload: RequestBody?
    let hadUpload: Bool
    let uploadWasReplayable: Bool

    func problem(_ context: String) -> String? {
        guard RedirectPolicy.isRedirect(statusCode) else { return "\(context): followed a non-redirect status" }
        guard policy.maximumRedirects > 0, redirectsSoFar < policy.maximumRedirects else {
            return "\(context): followed past the limit of \(policy.maximumRedirects)"
        }
        guard let target = next.url else { return "\(context): followed to no URL" }
        let to = Self.origin(of: target.absoluteString)
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "\(context): followed to \(target.absoluteString), which is not http or https"
        }
        if request.url?.scheme?.lowercased() == "https", scheme == "http", !policy.allowsInsecureRedirects {
            return "\(context): downgraded to \(target.absoluteString)"
        }
        let from = request.url.flatMap { Self.origin(of: $0.absoluteString) }
        if from == nil || from != to {
            let sensitive = Set(["authorization", "cookie", "proxy-authorization"] + policy.sensitiveHeaderNames.map { $0.lowercased() })
            for name in (next.allHTTPHeaderFields ?? [:]).keys where sensitive.contains(name.lowercased()) {
                return "\(context): \(name) reached \(target.absoluteString), another origin"
            }
        }
        let method = request.httpMethod ?? "GET"
        let becomesGET = (statusCode == 303 && method != "HEAD") || ((statusCode == 301 || statusCode == 302) && method == "POST")
        if becomesGET {
            if next.httpMethod != "GET" || next.httpBody != nil || upload != nil || next.value(forHTTPHeaderField: "Content-Type") != nil {
                return "\(context): a redirect to GET kept the method, the body or its headers"
            }
        } else {
            if next.httpMethod != request.httpMethod || next.httpBody != request.httpBody || (upload != nil) != hadUpload {
                return "\(context): the method or the body changed"
            }
            if hadUpload, !uploadWasReplayable {
                return "\(context): followed with an upload that cannot be sent again"
            }
        }
        return nil
    }

    /// Scheme, host and port as `URLComponents` reads the URL's text, independently of the
    /// policy, which asks `URL`; nil when the text does not parse. The host is percent-decoded,
    /// as libcurl decodes it before resolving: `a%2Eexample` is where `a.example` is.
    static func origin(of text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased()
        else { return nil }
        return "\(scheme)://\(host):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }
}
