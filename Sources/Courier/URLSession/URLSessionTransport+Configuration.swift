#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// The settings Courier applies to the sessions it creates.
    public struct Configuration: Sendable {
        /// Which content codings the engine asks for and decodes.
        ///
        /// FoundationNetworking has libcurl decode every coding it knows, a whole burst inside one
        /// call, and hands the decoded blocks to the session's delegate later, on its own queue.
        /// Courier counts the decoded bytes as they arrive and, past
        /// ``Policies/maximumResponseBytes``, fails the request with
        /// `URLError(.dataLengthExceedsMaximum)` at once and cancels the task; but the cancel
        /// reaches libcurl only once it has finished the burst it is decoding, so a compression
        /// bomb keeps one of FoundationNetworking's threads busy for a while after the caller has
        /// its error (measured: see the README's hostile-server figures). `CurlTransport` stops
        /// decoding at the limit itself.
        public enum ContentDecoding: Sendable, Equatable {
            /// Requests ask for `Accept-Encoding: identity` unless they set the header
            /// themselves, and a response that arrives encoded anyway is refused at its head
            /// with `URLError(.cannotDecodeContentData)`, before any of its body is decoded:
            /// for servers whose compressed answers you do not want decoded at all.
            case identityOnly
            /// The default, and URLSession's own behaviour: gzip, deflate, br and zstd are asked
            /// for and decoded, within ``Policies/maximumResponseBytes`` of decoded bytes.
            case all
        }

        /// The most connections kept to one host.
        public var maximumConnectionsPerHost: Int
        /// Redirects, limits, the idle timeout, the total deadline, the `User-Agent` and the other
        /// policies both transports share.
        public var policies: Policies
        /// Which content codings are asked for and decoded; ``ContentDecoding/all`` unless asked.
        public var contentDecoding: ContentDecoding
        /// The most bytes of a streamed body that may wait for their reader; 64 MiB unless asked.
        ///
        /// FoundationNetworking cannot pause a transfer, so a reader slower than the network
        /// (a file on a slow disk, a consumer doing work per chunk) does not slow the server
        /// down. Past this many unread bytes the body fails with
        /// `URLError(.dataLengthExceedsMaximum)` and the task is cancelled, whatever
        /// ``Policies/maximumResponseBytes`` allows, so memory stays bounded even for a body
        /// with no limit. `CurlTransport` pauses instead.
        public var maximumUnreadBytes: Int

        /// Creates a configuration; the defaults are URLSession's except for caching and cookies,
        /// which are ``Policies/cookies``.
        public init(
            maximumConnectionsPerHost: Int = 6,
            policies: Policies = Policies(),
            contentDecoding: ContentDecoding = .all,
            maximumUnreadBytes: Int = 64 << 20
        ) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.policies = policies
            self.contentDecoding = contentDecoding
            self.maximumUnreadBytes = maximumUnreadBytes
        }

        func sessionConfiguration() -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            // FoundationNetworking traps on intervals it cannot express in whole milliseconds. The
            // total deadline is a policy layer, so the session's own resource timeout stays at
            // URLSession's default of a week.
            configuration.timeoutIntervalForRequest = URLRequest.clampedTimeout(
                policies.idleTimeout, fallback: URLRequest.defaultTimeoutInterval
            )
            configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
            // Cookies are the policies' (a CookieStore, the same on both engines), never
            // FoundationNetworking's own storage.
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            return configuration
        }
    }
}
