#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A layer that sends the cookies of `store` with each request and stores the cookies of each
/// response.
///
/// Put it inside the redirect layer (``Policies/redirects``) so that it sees every hop: a cookie set by a 302 is
/// stored before the next request is made, and each hop gets the cookies of its own URL.
///
/// For each request it:
/// 1. adds the store's `Cookie` header for the request URL
///    (``CookieStore/cookieHeader(for:now:)``). A `Cookie` header already on the request is
///    kept, and the store's cookies follow it after "; ", so there is still one header
///    (RFC 6265 §5.4).
/// 2. sends the request.
/// 3. stores every `Set-Cookie` of the response, whatever its status, before returning it.
///    A response that is not an `HTTPURLResponse`, or a failure, stores nothing.
///
/// A request whose `httpShouldHandleCookies` is `false` passes through untouched and its
/// response's cookies are not stored, as URLSession does for such a request.
///
/// Transports hand repeated `Set-Cookie` fields over as one value joined with ", ", and a
/// cookie's `Expires` date has a comma of its own. The joined value is split at a comma only
/// where what follows, up to the next ";" or ",", has the form `token=`: a new cookie, not a
/// date. A single cookie whose value holds ", name=" is therefore read as two cookies, the
/// one ambiguity this joining leaves.
///
/// ```swift
/// let cookies = CookieStore()
/// let networking = layered(engine, [followingRedirects(), storingCookies(in: cookies)])
/// ```
package func storingCookies(in store: CookieStore) -> NetworkingLayer {
    buffered(cookieLayer(in: store))
}

/// The cookie layer (``Policies/cookies``) over either kind of body: the cookies of a response are
/// stored from its head, before its body is read.
package func cookieLayer<Body: Sendable, Head: ExchangeHead>(in store: CookieStore) -> ExchangeLayer<Body, Head> {
    ExchangeLayer { next in
        { request, upload in
            guard request.httpShouldHandleCookies else { return try await next(request, upload) }
            let (body, response) = try await next(request.addingCookies(from: store), upload)
            let values = response.setCookieValues
            if !values.isEmpty, let url = response.responseURL ?? request.url {
                store.store(setCookieFields: values, from: url)
            }
            return (body, response)
        }
    }
}

extension URLRequest {
    fileprivate func addingCookies(from store: CookieStore) -> URLRequest {
        guard let url, let stored = store.cookieHeader(for: url) else { return self }
        let existing = value(forHTTPHeaderField: "Cookie").flatMap { $0.isEmpty ? nil : $0 }
        var request = self
        request.replaceHeader("Cookie", with: existing.map { "\($0); \(stored)" } ?? stored)
        return request
    }
}

/// Splits a `Set-Cookie` value that a transport joined with commas into the field values it
/// was made of (see the cookie layer (``Policies/cookies``) for the rule and its one ambiguity).
func setCookieFieldValues(splittingJoined joined: String) -> [String] {
    let bytes = Array(joined.utf8)
    var values: [String] = []
    var start = bytes.startIndex
    for index in bytes.indices where bytes[index] == UInt8(ascii: ",") && startsCookie(bytes[(index + 1)...]) {
        values.append(trimmedValue(bytes[start..<index]))
        start = index + 1
    }
    values.append(trimmedValue(bytes[start...]))
    return values.filter { !$0.isEmpty }
}

/// Whether `rest`, up to the next ";" or ",", is `OWS token OWS "=" …`.
private func startsCookie(_ rest: ArraySlice<UInt8>) -> Bool {
    let segment = rest.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: ",") }
    guard let equals = segment.firstIndex(of: UInt8(ascii: "=")) else { return false }
    let name = segment[..<equals].trimmingCookieWhitespace
    return !name.isEmpty && name.allSatisfy(HTTPFieldSyntax.isTokenCharacter)
}

private func trimmedValue(_ bytes: ArraySlice<UInt8>) -> String {
    String(decoding: bytes.trimmingCookieWhitespace, as: UTF8.self)
}
