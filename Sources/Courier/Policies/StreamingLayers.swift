#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The policy layers for a ``StreamingNetworking``: the same policies, with the same rules and
/// errors, as the ``NetworkingLayer`` functions of the same names.
///
/// the streaming layers and the same policies stack them
/// from a configuration; these are for stacking them by hand:
///
/// ```swift
/// let streaming = layered(engine, [StreamingLayers.describingErrors(), StreamingLayers.followingRedirects()])
/// ```
///
/// They live in a namespace of their own because a global function that differed from
/// the redirect layer (``Policies/redirects``) only in its return type would make `let layer =
/// followingRedirects()` ambiguous.
///
/// Every decision is taken on a response's head, before its body is read. Two policies also
/// reach into the body while it arrives: error descriptions describe the errors a read throws,
/// and the total deadline ends a body still arriving when it passes.
package enum StreamingLayers {
    /// The streaming the error-description layer: errors thrown before the head and errors thrown
    /// later while the body is read get the same description.
    package static func describingErrors() -> StreamingNetworkingLayer {
        errorDescriptionLayer()
    }

    /// The streaming the total deadline (``Policies/totalDeadline``). The deadline covers the body too: when it passes
    /// while the body is still arriving, the body's next read throws the same
    /// `URLError(.timedOut)` and its transfer is cancelled. A body read to its end or dropped
    /// before the deadline leaves nothing running behind it.
    package static func totalDeadline(_ seconds: TimeInterval) -> StreamingNetworkingLayer {
        deadlineLayer(seconds)
    }

    /// The streaming the redirect layer (``Policies/redirects``): redirects are followed on the head, and the body
    /// of a followed 3xx is dropped, which cancels its transfer.
    ///
    /// The ``UploadBody`` goes to the next hop by the rules for `httpBody`: dropped when the
    /// method becomes GET (a 303, or a 301 or 302 after POST), sent again on 307 and 308. A body
    /// that cannot be sent again (``UploadBody/isReplayable`` is false) fails such a redirect with
    /// `URLError(.requestBodyStreamExhausted)`.
    package static func followingRedirects(_ policy: RedirectPolicy = RedirectPolicy()) -> StreamingNetworkingLayer {
        redirectLayer(policy)
    }

    /// The streaming the cookie layer (``Policies/cookies``): on every hop, cookies are sent with the request
    /// and stored from the response head before its body is read.
    package static func storingCookies(in store: CookieStore) -> StreamingNetworkingLayer {
        cookieLayer(in: store)
    }

    /// The streaming response validation: the head is checked before the body is handed on.
    package static func validatingResponses() -> StreamingNetworkingLayer {
        validationLayer()
    }
}
