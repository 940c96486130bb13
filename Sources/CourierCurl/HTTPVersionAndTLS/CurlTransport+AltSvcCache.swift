extension CurlTransport {
    /// Where a ``CurlTransport`` keeps the alternative services servers announce in `Alt-Svc`
    /// answers (RFC 7838), libcurl's Alt-Svc cache (`CURLOPT_ALTSVC`, curl's `--alt-svc`).
    ///
    /// With a cache, an `Alt-Svc: h3=":443"` answer from a server reached over HTTP/2 moves the
    /// transport's later requests to that origin onto HTTP/3, on any of its connections, once
    /// ``HTTPVersionPreference/http3`` allows HTTP/3 (libcurl follows an HTTP/3 alternative only
    /// then, and ``HTTPVersionPreference/http3Only`` goes to the URL's own port). Only answers over
    /// `https` count, as in curl. ``off``, the default, keeps nothing, as URLSession on Linux.
    ///
    /// Under ``HTTPVersionPreference/http3`` with a cache, requests to an origin known to
    /// announce HTTP/3 are in flight at most ``Configuration-swift.struct/maximumConnectionsPerHost``
    /// at once (each still reusing an open connection): libcurl 8.14 fails requests that waited
    /// while a connection to an alternative service was being opened.
    public struct AltSvcCache: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case off, inMemory
            case file(String)
        }

        private let value: Value

        /// No cache: `Alt-Svc` answers are ignored. The default.
        public static let off = AltSvcCache(value: .off)
        /// A cache for this transport alone, gone with it: libcurl's file format in a private
        /// file the transport makes in the temporary directory and removes when its last
        /// handle is released.
        public static let inMemory = AltSvcCache(value: .inMemory)

        /// A cache in the file at `path`, read when the transport starts and written as answers
        /// arrive, in the format curl's `--alt-svc FILE` reads and writes, so curl and several
        /// processes can share it. A missing file is an empty cache.
        public static func file(_ path: String) -> AltSvcCache {
            AltSvcCache(value: .file(path))
        }

        private init(value: Value) {
            self.value = value
        }

        /// The file a ``file(_:)`` cache is kept in; nil for the others.
        package var path: String? {
            if case .file(let path) = value { path } else { nil }
        }

        var isOff: Bool { value == .off }

        /// `off`, `in-memory` or `file:PATH`.
        public var description: String {
            switch value {
            case .off: "off"
            case .inMemory: "in-memory"
            case .file(let path): "file:\(path)"
            }
        }
    }
}
