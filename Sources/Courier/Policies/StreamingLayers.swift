#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The policy layers for a ``StreamingNetworking``: the same policies, with the same rules and
/// errors, as the ``NetworkingLayer`` functions of the same names.
///
/// ``Policies`` stacks them from a configuration (``Policies/apply(to:)-(StreamingNetworking)``);
/// these are for stacking them by hand:
///
/// ```swift
/// let streaming = layered(engine, [StreamingLayers.describingErrors(), StreamingLayers.followingRedirects()])
/// ```
///
/// They live in a namespace of their own because a global function that differed from the
/// buffered `followingRedirects(_:)` only in its return type would make `let layer =
/// followingRedirects()` ambiguous.
///
/// Every decision is taken on a response's head, before its body is read. Two policies also
/// reach into the body while it arrives: error descriptions describe the errors a read throws,
/// and the total deadline ends a body still arriving when it passes.
package enum StreamingLayers {
    /// Error descriptions for a streamed body: errors thrown before the head and errors thrown
    /// later while the body is read get the same description.
    package static func describingErrors() -> StreamingNetworkingLayer {
        errorDescriptionLayer()
    }

    /// The total deadline (``Policies/totalDeadline``) for a streamed body, which it covers too:
    /// when it passes while the body is still arriving, the body's next read throws the same
    /// `URLError(.timedOut)` and its transfer is cancelled. A body read to its end or dropped
    /// before the deadline leaves nothing running behind it.
    package static func totalDeadline(_ seconds: TimeInterval) -> StreamingNetworkingLayer {
        deadlineLayer(seconds)
    }

    /// Redirects (``Policies/redirects``) for a streamed body: they are followed on the head, and
    /// the body of a followed 3xx is dropped, which cancels its transfer.
    ///
    /// The ``RequestBody`` goes to the next hop by the rules for `httpBody`: dropped when the
    /// method becomes GET (a 303, or a 301 or 302 after POST), sent again on 307 and 308. A body
    /// that cannot be sent again (``RequestBody/isReplayable`` is false) fails such a redirect with
    /// `URLError(.requestBodyStreamExhausted)`.
    package static func followingRedirects(_ policy: RedirectPolicy = RedirectPolicy()) -> StreamingNetworkingLayer {
        redirectLayer(policy)
    }

    /// Cookies (``Policies/cookies``) for a streamed body: on every hop, they are sent with the
    /// request and stored from the response head before its body is read.
    package static func storingCookies(in store: CookieStore) -> StreamingNetworkingLayer {
        cookieLayer(in: store)
    }

    /// Response validation for a streamed body: the head is checked before the body is handed on.
    package static func validatingResponses() -> StreamingNetworkingLayer {
        validationLayer()
    }
}
