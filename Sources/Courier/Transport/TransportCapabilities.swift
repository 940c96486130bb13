import Foundation

/// What an engine can do, where the two differ; every other behaviour is the same on both.
public struct TransportCapabilities: Sendable, Equatable {
    /// A streamed body whose reader falls behind pauses the transfer, so memory stays at the
    /// stream's buffer; otherwise the unread bytes wait in memory, up to a limit.
    public var pausesForSlowReaders: Bool
    /// Decoding stops at ``Policies/maximumResponseBytes``; otherwise the engine goes on decoding
    /// a compression bomb in the background after the caller has its error.
    public var stopsDecodingAtTheLimit: Bool
    /// A chunked response's trailer fields are returned; otherwise they end the process.
    public var returnsTrailers: Bool
    /// HTTP, HTTPS and SOCKS proxies, with credentials and a no-proxy list, are used;
    /// otherwise asking for one fails with ``RequestError/unsupportedOption(_:transport:supportedBy:)``.
    public var connectsThroughProxies: Bool
    /// `http+unix` URLs (see `URL.unixSocket(_:path:secure:)`) and a transport-wide Unix
    /// socket are sent over the socket; otherwise they are refused as above.
    public var connectsOverUnixSockets: Bool
    /// Fixed addresses for host names, connect-to rewrites and a DNS-over-HTTPS server replace
    /// the system's resolver where configured; otherwise they are refused as above.
    public var overridesDNS: Bool
    /// HTTP/1.1 only and HTTP/2 with prior knowledge (h2c) can be chosen, and the version
    /// spoken is reported in ``ResponseHead/httpVersion``; otherwise asking is refused as above.
    public var choosesHTTPVersion: Bool
    /// A client certificate (its key possibly encrypted), a pinned public key and a minimum TLS
    /// version are honoured; otherwise asking for one is refused as above.
    public var configuresTLSIdentity: Bool
    /// The response's head and body are handed over while a ``RequestBody/duplex(_:length:)``
    /// body is still being produced; otherwise such a body is refused as above.
    public var streamsDuplex: Bool
    /// HTTP/3 over QUIC can be asked for (`CurlTransport.HTTPVersionPreference.http3` and
    /// `.http3Only`), and Alt-Svc answers can move requests to it: true for `CurlTransport` on
    /// a libcurl built with HTTP/3 (ngtcp2 or quiche), decided when the process runs;
    /// otherwise asking is refused as above.
    public var speaksHTTP3: Bool

    /// Capabilities from their parts; what is not given is not supported.
    public init(
        pausesForSlowReaders: Bool = false, stopsDecodingAtTheLimit: Bool = false, returnsTrailers: Bool = false,
        connectsThroughProxies: Bool = false, connectsOverUnixSockets: Bool = false, overridesDNS: Bool = false,
        choosesHTTPVersion: Bool = false, configuresTLSIdentity: Bool = false, streamsDuplex: Bool = false,
        speaksHTTP3: Bool = false
    ) {
        self.pausesForSlowReaders = pausesForSlowReaders
        self.stopsDecodingAtTheLimit = stopsDecodingAtTheLimit
        self.returnsTrailers = returnsTrailers
        self.connectsThroughProxies = connectsThroughProxies
        self.connectsOverUnixSockets = connectsOverUnixSockets
        self.overridesDNS = overridesDNS
        self.choosesHTTPVersion = choosesHTTPVersion
        self.configuresTLSIdentity = configuresTLSIdentity
        self.streamsDuplex = streamsDuplex
        self.speaksHTTP3 = speaksHTTP3
    }
}
