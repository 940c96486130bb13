import Foundation
import Synchronization

/// The one file a transport's Alt-Svc cache lives in, shared by all its easy handles.
///
/// libcurl keeps an Alt-Svc cache per easy handle: it reads the file when `CURLOPT_ALTSVC` is
/// set, and writes its cache back only in `curl_easy_cleanup` (7.76 to 8.14 alike). The
/// transport's handles are pooled and live as long as it does, so on its own what one handle
/// learned would never reach another. Hence three rules, applied by the handles and their pool:
///
/// - A handle whose transfer brought an `Alt-Svc` answer not yet shared (``shares(_:from:)``) is
///   not pooled again: it is cleaned up, which writes the file, and the file's ``generation``
///   goes up.
/// - A pooled handle that read an older generation is let go, and a new handle reads the file.
/// - A handle that learned nothing is let go without writing, so its older copy never
///   overwrites what others wrote.
///
/// Two handles that learn at once each write what they read plus what they learned; the later
/// one reads the file again first, so neither answer is lost.
final class CurlAltSvcFile: Sendable {
    let path: String
    /// The private directory of an in-memory cache, removed with the file; nil for the user's file.
    private let privateDirectory: URL?
    private let state = Mutex(State())

    private struct State {
        var generation = 0
        /// The last `Alt-Svc` value shared per origin, and when: the same answer again within
        /// ``refreshInterval`` costs nothing, so servers that send it on every response do not
        /// make every request write the file.
        var shared: [String: (value: String, at: ContinuousClock.Instant)] = [:]
        /// Origins (`host:port`) known to name an HTTP/3 alternative: from the file as it was
        /// when the transport started, and from answers since.
        var announcingHTTP3: Set<String> = []
    }

    /// How long an answer shared once stays shared before the same answer is written again
    /// (which also carries its renewed lifetime to the file).
    static let refreshInterval: Duration = .seconds(60)

    /// The file for `cache`, or nil when it is off.
    init?(_ cache: CurlTransport.AltSvcCache) throws(CurlError) {
        if let path = cache.path {
            guard !path.isEmpty else {
                throw CurlError(kind: .option, curlCode: 0, message: "the Alt-Svc cache file's path is empty (Configuration.altSvcCache)")
            }
            self.path = path
            privateDirectory = nil
        } else if cache == .inMemory {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-alt-svc-\(UUID().uuidString)")
            do {
                // Owner only: the hosts a process talks to are its own business.
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw CurlError(
                    kind: .option, curlCode: 0,
                    message: "the in-memory Alt-Svc cache's private directory \(directory.path) could not be made: \(error)"
                )
            }
            privateDirectory = directory
            path = directory.appendingPathComponent("alt-svc.txt").path
        } else {
            return nil
        }
        let known = Self.originsAnnouncingHTTP3(inFileAt: path)
        state.withLock { $0.announcingHTTP3 = known }
    }

    /// `host:port` of an https URL, as libcurl keys its cache; nil for another scheme, whose
    /// Alt-Svc answers libcurl ignores.
    static func origin(of url: URL) -> String? {
        guard url.scheme?.lowercased() == "https", let host = url.host else { return nil }
        return "\(host):\(url.port ?? 443)"
    }

    /// Whether the origin of `url` is known to name an HTTP/3 alternative.
    func announcesHTTP3(for url: URL) -> Bool {
        guard let origin = Self.origin(of: url) else { return false }
        return state.withLock { $0.announcingHTTP3.contains(origin) }
    }

    /// The origins with an HTTP/3 entry in a file of libcurl's format, one entry a line:
    /// `h2 example.com 443 h3 example.com 443 "20261231 10:00:00" 0 0`.
    private static func originsAnnouncingHTTP3(inFileAt path: String) -> Set<String> {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        var origins: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 6)
            if fields.count >= 6, fields[3].lowercased().hasPrefix("h3") {
                origins.insert("\(fields[1]):\(fields[2])")
            }
        }
        return origins
    }

    deinit {
        removePrivateFile()
    }

    /// Removes an in-memory cache's private directory and file: when the transport has shut
    /// down, or when the last handle is gone. A handle let go later writes nothing, since
    /// libcurl cannot create the file in a directory that is gone.
    func removePrivateFile() {
        if let privateDirectory {
            try? FileManager.default.removeItem(at: privateDirectory)
        }
    }

    /// How many times a handle wrote what it learned to the file.
    var generation: Int {
        state.withLock { $0.generation }
    }

    /// Whether `value`, an `Alt-Svc` answer from `origin` (`host:port`), is to be written for
    /// the other handles: true the first time, when it changed, or once it is older than
    /// ``refreshInterval``.
    func shares(_ value: String, from origin: String) -> Bool {
        let now = ContinuousClock.now
        let namesHTTP3 = value.lowercased().contains("h3")
        return state.withLock { state in
            if namesHTTP3 {
                state.announcingHTTP3.insert(origin)
            } else {
                state.announcingHTTP3.remove(origin)
            }
            if let last = state.shared[origin], last.value == value, now - last.at < Self.refreshInterval {
                return false
            }
            state.shared[origin] = (value, now)
            return true
        }
    }

    /// A handle wrote the file: handles that read it before read it again.
    func didWrite() {
        state.withLock { $0.generation += 1 }
    }
}
