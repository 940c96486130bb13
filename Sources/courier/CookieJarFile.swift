import ArgumentParser
import Courier
import Foundation

/// `--cookie-jar FILE`: a ``Courier/CookieStore`` loaded from a Netscape cookie file, and saved
/// back to it, so cookies carry from one invocation to the next as with curl's `-b FILE -c FILE`.
struct CookieJarFile {
    let path: String
    let store: CookieStore

    /// Loads `path`; a missing file is an empty jar, as with curl. Lines the store cannot read
    /// are skipped with a warning each, and the rest are kept.
    static func load(_ path: String, method: String, url: URL) throws -> CookieJarFile {
        let store = CookieStore()
        if FileManager.default.fileExists(atPath: path) {
            let contents: String
            do {
                contents = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            } catch {
                Terminal.errorLine("\(method) \(url.redactedString): cannot read the cookie jar \(path): \(RequestCommand.describe(fileError: error))")
                throw ExitCode(CurlExitCode.readError)
            }
            for skipped in store.load(netscapeCookieFile: contents) {
                Terminal.errorLine("warning: \(path):\(skipped.lineNumber): \(skipped.reason); line skipped")
            }
        }
        return CookieJarFile(path: path, store: store)
    }

    /// Writes every cookie the store holds, session cookies included, as curl does.
    func save(method: String, url: URL) throws {
        do {
            try Data(store.netscapeCookieFile().utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            Terminal.errorLine("\(method) \(url.redactedString): cannot write the cookie jar \(path): \(RequestCommand.describe(fileError: error))")
            throw ExitCode(CurlExitCode.writeError)
        }
    }
}
