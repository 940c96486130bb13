import ArgumentParser
import Courier
import Foundation

/// `--cache DIR`: an ``Courier/HTTPCache`` in a directory that outlives the invocation, so a
/// later run answers from what an earlier one kept, and that several runs may share at once.
/// curl has no cache, so these names are Courier's own.
struct CacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Keep responses in DIR and answer from them as a private HTTP cache does (RFC 9111); several runs may share DIR at once.",
        valueName: "dir"
    ))
    var cache: String?

    @Option(help: ArgumentHelp(
        "The most bytes the --cache directory holds, the least recently used responses removed first (default 256 MiB).",
        valueName: "bytes"
    ))
    var cacheMaxBytes: Int = 256 << 20

    @Flag(help: "With --cache, reuse a response that says nothing of its freshness for a tenth of the time since its Last-Modified (RFC 9111 §4.2.2; off by default).")
    var cacheHeuristics = false

    func validate() throws {
        guard cacheMaxBytes > 0 else { throw ValidationError("--cache-max-bytes must be more than 0") }
        if cache == nil, cacheHeuristics { throw ValidationError("--cache-heuristics needs --cache DIR") }
    }

    /// The cache in `--cache DIR`, nil without it; exits 23, as curl does for a file it cannot
    /// write, when the directory cannot be made or used, before anything is sent.
    func httpCache(method: String, url: URL) throws -> HTTPCache? {
        guard let cache else { return nil }
        let directory = URL(fileURLWithPath: cache, isDirectory: true)
        do {
            return try HTTPCache(directory: directory, maximumBytes: cacheMaxBytes, usesHeuristicFreshness: cacheHeuristics)
        } catch {
            Terminal.errorLine("\(method) \(url.redactedString): \(error)")
            throw ExitCode(CurlExitCode.writeError)
        }
    }
}
