import Foundation

/// How far one exchange has got: bytes of the request body taken by the engine, bytes of the
/// response body read, and the totals when they are known.
///
/// Reported by the transports' `download` and `upload` methods
/// (``HTTPTransport/download(for:progress:)``, ``HTTPTransport/upload(for:fromFile:progress:)``),
/// at most ten times a second while bytes move, and always for the response head, the last
/// byte sent and the end of the response body (``isFinished``).
public struct TransferProgress: Sendable, Equatable {
    /// Bytes of the request body the engine has taken to send so far. Starts again from zero
    /// when a 307 or 308 redirect sends the body again.
    public var bytesSent: Int64

    /// The size of the request body, when known: the ``RequestBody/length``, the `httpBody`'s
    /// size or a `Content-Length` the request sets; `0` with no body.
    public var expectedBytesToSend: Int64?

    /// Bytes of the response body read so far, after content decoding.
    public var bytesReceived: Int64

    /// The size of the response body, when known.
    ///
    /// The response's `Content-Length` while the body arrives, unless the body is
    /// content-encoded: that length counts the encoded bytes, and the decoded body that is read
    /// is usually longer, so the total is then unknown. It also becomes unknown should more
    /// bytes arrive than announced. Once the body has been read to its end it is the count
    /// read, so a finished transfer always has a total.
    public var expectedBytesToReceive: Int64?

    /// Whether the response body has been read to its end.
    public var isFinished: Bool

    /// A transfer before anything moved.
    package init(
        bytesSent: Int64 = 0, expectedBytesToSend: Int64? = nil, bytesReceived: Int64 = 0,
        expectedBytesToReceive: Int64? = nil, isFinished: Bool = false
    ) {
        self.bytesSent = bytesSent
        self.expectedBytesToSend = expectedBytesToSend
        self.bytesReceived = bytesReceived
        self.expectedBytesToReceive = expectedBytesToReceive
        self.isFinished = isFinished
    }

    /// The share of the response body read, from 0 to 1: ``bytesReceived`` over
    /// ``expectedBytesToReceive``.
    ///
    /// Nil while the size is unknown: a response without `Content-Length`, a content-encoded
    /// one, or one that sent more than it announced. Once the body has been read to its end the
    /// size is known, so a finished transfer's fraction is 1, an empty body's included.
    public var fractionReceived: Double? {
        guard let expected = expectedBytesToReceive else { return nil }
        guard expected > 0 else { return isFinished ? 1 : 0 }
        return min(1, Double(bytesReceived) / Double(expected))
    }

    /// The share of the request body sent, from 0 to 1: ``bytesSent`` over
    /// ``expectedBytesToSend``; 1 with no body, nil when the body's size is unknown (a stream
    /// without a length).
    public var fractionSent: Double? {
        guard let expected = expectedBytesToSend else { return nil }
        guard expected > 0 else { return 1 }
        return min(1, Double(bytesSent) / Double(expected))
    }
}
