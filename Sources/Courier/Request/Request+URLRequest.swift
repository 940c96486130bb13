#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension Request {
    /// Builds the `URLRequest` a transport sends.
    ///
    /// The URL is ``endpoint`` resolved against `baseURL`, with the method's query items
    /// appended; a body's content type is set unless ``headers`` name one. A body held in memory
    /// is the request's `httpBody`; one read as it is sent (a file, a stream, a form with files)
    /// is not in the `URLRequest` and goes beside it.
    ///
    /// - Throws: ``RequestError`` when the URL cannot be formed, the method is not a token, a
    ///   header is malformed, or the body cannot be encoded. Never traps.
    package func urlRequest(baseURL: URL? = nil, encoder: JSONEncoder = JSONEncoder()) throws(RequestError) -> URLRequest {
        try urlRequest(url: endpointWithMethodQuery.url(relativeTo: baseURL), encoder: encoder)
    }

    /// ``urlRequest(baseURL:encoder:)`` against a base taken apart once: the same request, with
    /// each of `defaultFields` that ``headers`` does not name.
    ///
    /// A transport's default-header layer fills the same fields in; filled here, while the
    /// request is new and this code its only owner, they cost no copy of Foundation's request.
    func urlRequest(
        base: ResolvedBaseURL, encoder: JSONEncoder, defaultFields: DefaultFields = DefaultFields()
    ) throws(RequestError) -> URLRequest {
        try urlRequest(url: base.url(for: endpointWithMethodQuery), encoder: encoder, defaultFields: defaultFields)
    }

    /// ``endpoint`` with the method's query items after its own.
    private var endpointWithMethodQuery: Endpoint {
        var endpoint = self.endpoint
        endpoint.queryItems += method.queryItems
        return endpoint
    }

    private func urlRequest(
        url: URL, encoder: JSONEncoder, defaultFields: DefaultFields = DefaultFields()
    ) throws(RequestError) -> URLRequest {
        guard HTTPFieldSyntax.isToken(method.name) else { throw .invalidMethod(method.name) }

        var request = URLRequest(url: url)
        // GET is URLRequest's own default, and its setter normalises the name through
        // NSString (two allocations), so the most common method is left as it is.
        if method.name != "GET" { request.httpMethod = method.name }
        if let timeoutInterval { request.timeoutInterval = timeoutInterval }
        for (name, value) in headers {
            try HTTPFieldSyntax.validate(name: name, value: value)
            request.setValue(value, forHTTPHeaderField: name)
        }
        // The fields Courier adds go in through one write of the whole set: FoundationNetworking's
        // `setValue(_:forHTTPHeaderField:)` checks a value character by character and
        // capitalizes the name, which costs more than the copy of the request it would save
        // (Benchmarks/README.md), and drops a value with CR or LF silently. These are named as they are sent, and every engine refuses a value
        // with CR or LF before sending (`validateForSending`).
        var all = request.allHTTPHeaderFields ?? [:]
        var added = defaultFields.fill(&all)
        if let body = method.body {
            // A body read as it is sent goes beside the request (see `APIClient`), with its
            // Content-Type here.
            request.httpBody = try body.data(using: encoder)
            if let contentType = body.contentType, all.addMissing([(name: "Content-Type", value: contentType)]) {
                added = true
            }
        }
        if added { request.allHTTPHeaderFields = all }
        return request
    }
}
