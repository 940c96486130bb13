#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Dispatch
import Foundation

// A fixed number of 13-byte GETs (or 64 KiB POSTs) through APIClient over CurlTransport, for instruction counts
// under `valgrind --tool=callgrind` (Benchmarks/profile). Its main is synchronous on purpose:
// valgrind 3.19 crashes when the main thread parks in libdispatch, as an async main does.
//
//   courier-profile URL IN-FLIGHT REQUESTS [EVENT-LOOPS]
//
// With COURIER_PROFILE_H2=1, HTTP/2 by ALPN on one connection, the certificate unverified, as
// the benchmark's h2 rows (an https URL). With COURIER_PROFILE_POST=1, each request POSTs
// 64 KiB and expects the 2-byte answer of Benchmarks/profile's /upload.
// Exits 0 when every response was a 200 with the expected 13 bytes.

let arguments = CommandLine.arguments
guard arguments.count > 3, let url = URL(string: arguments[1]),
      let width = Int(arguments[2]), width > 0, let total = Int(arguments[3]), total >= width
else {
    FileHandle.standardError.write(Data("usage: courier-profile URL IN-FLIGHT REQUESTS [EVENT-LOOPS]\n".utf8))
    exit(2)
}
let loops = arguments.count > 4 ? Int(arguments[4]) : nil

/// What the requests did, read once the detached task has signalled.
final class Tally: @unchecked Sendable {
    var completed = 0
    var failures = 0
    var error: (any Error)?
}

let tally = Tally()
let finished = DispatchSemaphore(value: 0)
Task.detached {
    do {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = max(width, 1)
        if let loops { configuration.eventLoopCount = loops }
        if ProcessInfo.processInfo.environment["COURIER_PROFILE_H2"] == "1" {
            configuration.httpVersion = .automatic
            configuration.maximumConnectionsPerHost = 1
            configuration.maximumConcurrentStreamsPerConnection = max(width, 100)
            configuration.verifiesPeer = false
        }
        let transport = try CurlTransport(configuration: configuration)
        let client = APIClient(baseURL: url.deletingLastPathComponent(), transport: transport)
        let path = url.lastPathComponent
        let posts = ProcessInfo.processInfo.environment["COURIER_PROFILE_POST"] == "1"
        let method: HTTPMethod = posts ? .post(.data(Data(repeating: UInt8(ascii: "x"), count: 64 << 10))) : .get()
        let expected = posts ? 2 : 13
        let (completed, failures) = await withTaskGroup(of: (Int, Int).self) { group in
            for worker in 0..<width {
                let share = total / width + (worker < total % width ? 1 : 0)
                group.addTask {
                    var completed = 0
                    var failures = 0
                    for _ in 0..<share {
                        if let body = try? await client.send(Request<Data>(path, method: method)), body.count == expected {
                            completed += 1
                        } else {
                            failures += 1
                        }
                    }
                    return (completed, failures)
                }
            }
            return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        tally.completed = completed
        tally.failures = failures
        await transport.shutdown()
    } catch {
        tally.error = error
    }
    finished.signal()
}
finished.wait()
if let error = tally.error {
    FileHandle.standardError.write(Data("courier-profile: \(error)\n".utf8))
    exit(1)
}
print("completed \(tally.completed) failures \(tally.failures)")
exit(tally.failures == 0 ? 0 : 1)
