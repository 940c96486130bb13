import NIOHTTP1

extension TestServer {
    /// The route table, first match wins. Adding a route is one line here and a small static
    /// function in the `TestServer+…Routes.swift` file for its family.
    static let routes: [Route] = [
        // Echoes
        Route("/get", echo),
        Route("/anything", echo),
        Route("/anything/*", echo),
        Route("/headers", headers),
        Route("/response-headers", responseHeaders),
        Route("/status/{code}", status),
        Route("/cookies", cookies),
        Route("/cookies/set", setCookies),
        Route("/basic-auth/{user}/{password}", basicAuth),
        Route("/bearer/{key}/{token}", bearer),
        // Redirects
        Route("/redirect/{count}", relativeRedirect),
        Route("/relative-redirect/{count}", relativeRedirect),
        Route("/absolute-redirect/{count}", absoluteRedirect),
        Route("/redirect-to", redirectTo),
        Route("/redirect-loop", { _ in .reply(.empty(.found, headers: ["Location": "/redirect-loop"])) }),
        // Bodies and timing
        Route("/bytes/{count}", bytes),
        Route("/stream-bytes/{count}", streamBytes),
        Route("/gzip", gzip),
        Route("/deflate", deflate),
        Route("/brotli", brotli),
        Route("/zstd", zstd),
        Route("/delay/{seconds}", delay),
        Route("/drip/{count}", drip),
        Route("/zeros/{count}", zeros),
        Route("/sink", sink),
        // Byte ranges
        Route("/range/changing/{key}/{count}", changingRangeBytes),
        Route("/range/{count}", rangeBytes),
        // Caching
        Route("/cache/{key}", cacheable),
        // Server-sent events
        Route("/sse", serverSentEvents),
        Route("/sse/endless-line", serverSentEventsEndlessLine),
        Route("/sse/flood/{bytes}", serverSentEventsFlood),
        Route("/sse/resumable/{key}", serverSentEventsResumable),
        // Faults
        Route("/close", { _ in .closeConnection }),
        Route("/truncate/{count}", truncate),
        Route("/never", { _ in .neverAnswer }),
        Route("/stall/{count}", stall),
        Route("/infinite", infinite),
        Route("/infinite/close-delimited", infiniteCloseDelimited),
        Route("/gzip-bomb/{mib}", gzipBomb),
        Route("/bomb/{encoding}/{mib}", bomb),
        Route("/interim/{codes}", interim),
        Route("/trailers", trailers),
        Route("/many-headers/{count}", manyHeaders),
        Route("/long-header/{kib}", longHeader),
        Route("/long-location/{kib}", longLocation),
        // Retries
        Route("/flaky/{key}/{failures}", flaky),
        // Hostile: replies that break HTTP/1.1's rules, written as raw bytes
        Route("/content-length/conflicting", conflictingContentLength),
        Route("/content-length/repeated", repeatedContentLength),
        Route("/content-length/list", listedContentLength),
        Route("/header-value/bare-cr", bareCRInHeaderValue),
        Route("/header-value/bare-lf", bareLFInHeaderValue),
        Route("/header-value/nul", nulInHeaderValue),
        Route("/status-line/ssh-banner", sshBanner),
        Route("/status-line/http09", http09),
        Route("/status-line/non-numeric", nonNumericStatus),
        Route("/status-line/lowercase-name", lowercaseHTTPName),
        Route("/status-line/no-reason", noReasonPhrase),
        Route("/status-line/empty-reason", emptyReasonPhrase),
    ]

    /// The action for `request`, received on the listener at `baseURL`.
    /// `discardedBodyBytes` counts the body of a `/sink` request, which is dropped as it arrives.
    /// `visit` counts the requests for a key and returns this one's number (see ``flaky(_:)``).
    static func action(
        for request: RecordedRequest, baseURL: String, discardedBodyBytes: Int = 0, visit: @escaping @Sendable (String) -> Int = { _ in 1 }
    ) -> RouteAction {
        // HEAD is answered as GET and the body dropped on the way out, so headers match exactly.
        let method = request.method == "HEAD" ? "GET" : request.method
        for route in routes {
            if let parameters = route.match(request.path) {
                return route.handler(
                    RouteRequest(
                        recorded: request, method: method, parameters: parameters, baseURL: baseURL,
                        discardedBodyBytes: discardedBodyBytes, visit: visit
                    )
                )
            }
        }
        return .reply(.error(.notFound, "not found"))
    }

    /// Largest body `/bytes`, `/stream-bytes` and `/truncate` will produce.
    static let maximumGeneratedBodySize = 100 * 1024 * 1024
}
