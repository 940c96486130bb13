#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension Policies {
    /// The layers over a WebSocket's opening handshake, outermost first: ``callLayers``, error
    /// descriptions, the total deadline (the handshake's only), the redirect refusal, then on the
    /// handshake cookies, response validation and ``hopLayers``.
    ///
    /// Not retries, which would open a second socket the caller did not ask for, and not the
    /// cache, which has no answer to an upgrade.
    func webSocketLayers() -> [ExchangeLayer<WebSocketUpgrade, ResponseHead>] {
        var layers: [ExchangeLayer<WebSocketUpgrade, ResponseHead>] = [defaultHeaderLayer(defaultFields)]
        layers += callLayers.map(policyLayer)
        layers.append(errorDescriptionLayer())
        if let totalDeadline { layers.append(deadlineLayer(totalDeadline)) }
        layers.append(handshakeRedirectRefusal())
        if let cookies { layers.append(cookieLayer(in: cookies)) }
        layers.append(validationLayer())
        layers += hopLayers.map(policyLayer)
        return layers
    }
}

/// A redirect in answer to a handshake fails, as browsers fail it (the WebSocket standard's
/// "establish a WebSocket connection" sets the redirect mode to "error").
private func handshakeRedirectRefusal() -> ExchangeLayer<WebSocketUpgrade, ResponseHead> {
    ExchangeLayer { send in
        { request, upload in
            let (upgrade, head) = try await send(request, upload)
            if RedirectPolicy.isRedirect(head.statusCode) {
                let location = head.value(forHTTPHeaderField: "Location").map { " to \(redactedURLText($0))" } ?? ""
                throw URLError(
                    .badServerResponse,
                    "the server answered the WebSocket handshake with a \(head.statusCode) redirect\(location), which a WebSocket does not follow",
                    url: request.url)
            }
            return (upgrade, head)
        }
    }
}

extension WebSocket {
    /// Opens a WebSocket for `request` through `policies` over an engine's `handshake`: what
    /// each transport's `webSocket(for:options:)` does.
    ///
    /// The request is sent in its `http` or `https` form (the WebSocket standard does the same
    /// before it fetches), so cookies, the `Authentication` layer's origin and the logs see
    /// the URL a plain request to that server has.
    package static func open(
        _ request: URLRequest, options: Options, policies: Policies, handshake: @escaping WebSocketHandshake
    ) async throws -> WebSocket {
        var request = request
        request.url = request.url.map(httpForm)
        if request.httpMethod == nil || request.httpMethod == "GET" {
            request.httpMethod = "GET"
        } else {
            throw RequestError.unsupportedOption(
                "open a WebSocket with \(request.httpMethod ?? ""); the handshake is a GET", transport: "WebSocket",
                supportedBy: "a GET request")
        }
        let engine: Exchange<WebSocketUpgrade, ResponseHead> = { request, _ in try await handshake(request, options) }
        let (upgrade, head) = try await layered(exchange: engine, policies.webSocketLayers())(request, nil)
        guard head.statusCode == 101, let channel = upgrade.channel else {
            upgrade.channel?.abort()
            var refusal = URLError(
                .badServerResponse,
                "the server answered the WebSocket handshake with \(head.statusCode) \(HTTPURLResponse.localizedString(forStatusCode: head.statusCode)), not 101 Switching Protocols",
                url: request.url
            ).described(for: request)
            // For APIClient, which answers a status with its APIError kind.
            refusal = URLError(refusal.code, userInfo: refusal.userInfo.merging([Self.refusedHeadKey: head]) { $1 })
            throw refusal
        }
        return WebSocket(channel: channel, head: head, request: request, ended: upgrade.ended)
    }

    /// The `URLError` user-info key under which a refused handshake carries the server's head.
    package static let refusedHeadKey = "CourierWebSocketRefusedHead"

    /// `ws` and `wss` as `http` and `https`; other URLs as they are.
    package static func httpForm(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        switch components.scheme?.lowercased() {
        case "ws": components.scheme = "http"
        case "wss": components.scheme = "https"
        default: return url
        }
        return components.url ?? url
    }
}
