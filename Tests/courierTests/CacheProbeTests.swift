import Courier
import Foundation
import Testing

@testable import courier

/// Two processes on one disk cache directory at once: the `courier cache-probe` child and the
/// same loop in this process, each writing, reading, freshening and removing the same keys.
@Suite struct CacheProbeTests {
    @Test func twoProcessesShareOneCacheDirectoryWithoutTornBodies() async throws {
        let directory = URL(fileURLWithPath: temporaryPath("-cache"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let bound = 256 << 10
        let probe = try CacheProbe(directory: directory, seed: 1, peer: 2, maximumBytes: bound)
        async let child = CourierToolProcess.run(
            ["cache-probe", directory.path, "--seed", "2", "--peer", "1", "--rounds", "300", "--maximum-bytes", "\(bound)"]
        )
        let mine = try await offTheTaskThreads { probe.run(rounds: 300) }
        let outcome = try await child

        #expect(outcome.status == 0, "\(outcome.stdoutText)\(outcome.stderrText)")
        // Each read whole bodies the other wrote, so the two ran on the directory at once.
        #expect(outcome.stdoutText.contains(" from the peer)"), "\(outcome.stdoutText)")
        #expect(mine.passed, "\(mine)")
        #expect(mine.wholeFromPeer >= CacheProbe.peerTarget, "\(mine)")
        #expect(mine.torn == 0 && mine.overBound == 0, "\(mine)")
        #expect(probe.store.storedBytes <= bound)
        // The count both kept is what the directory holds.
        var bytes = 0
        let files = FileManager.default.enumerator(atPath: directory.path)
        while let file = files?.nextObject() as? String {
            guard file.hasSuffix(".head") || file.hasSuffix(".body") else { continue }
            bytes += (try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)[.size] as? Int) ?? 0
        }
        #expect(probe.store.storedBytes == bytes)
        let temporary = directory.appendingPathComponent(".tmp").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    }

    @Test func theProbeFailsOnATornBody() throws {
        // The probe's own check, so that a passing two-process run means something: a body
        // whose bytes are not the ones its head names is counted torn.
        let directory = URL(fileURLWithPath: temporaryPath("-cache"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = try CacheProbe(directory: directory, seed: 1, peer: nil, maximumBytes: 1 << 20)
        _ = probe.run(rounds: 30)
        let keys = (0..<6).map { CacheKey(method: "GET", url: "http://127.0.0.1/probe/\($0)") }
        // Two bytes of every body overwritten in place, its length kept.
        var damaged = 0
        let files = FileManager.default.enumerator(atPath: directory.path)
        while let file = files?.nextObject() as? String {
            let path = directory.appendingPathComponent(file).path
            guard file.hasSuffix(".body"), let handle = FileHandle(forUpdatingAtPath: path) else { continue }
            defer { try? handle.close() }
            guard let first = try handle.read(upToCount: 2), first.count == 2 else { continue }
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Data(first.map { ~$0 }))
            damaged += 1
        }
        try #require(damaged > 0)
        var report = CacheProbe.Report()
        probe.readAll(of: keys, into: &report)
        #expect(report.torn >= 1)
    }
}
