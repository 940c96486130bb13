import ArgumentParser
import Courier
import Foundation

/// `courier cache-probe DIR`: writes and reads a few keys of a disk cache in a loop, checking
/// that every body read is the one its head describes and that the directory stays within its
/// bound; for the test that runs two processes on one directory. Hidden from help.
struct CacheProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache-probe",
        abstract: "Write and read a disk cache in a loop and check what is read (for the two-process cache test).",
        shouldDisplay: false
    )

    @Argument(help: "The cache directory.")
    var directory: String

    @Option(help: "This process's number, written into its bodies.")
    var seed = 1

    @Option(help: "The other process's number: run until this one has read its bodies and it has read ours.")
    var peer: Int?

    @Option(help: "The fewest rounds to run.")
    var rounds = 300

    @Option(help: "The cache's bound in bytes.")
    var maximumBytes = 256 << 10

    func run() throws {
        let probe = try CacheProbe(directory: URL(fileURLWithPath: directory), seed: seed, peer: peer, maximumBytes: maximumBytes)
        let report = probe.run(rounds: rounds)
        Terminal.line(report.description)
        if !report.passed { throw ExitCode(1) }
    }
}

/// The loop `courier cache-probe` runs, also run in the test's own process beside it.
struct CacheProbe {
    struct Report: CustomStringConvertible, Sendable {
        var written = 0
        var whole = 0
        /// Whole bodies that the peer wrote.
        var wholeFromPeer = 0
        var misses = 0
        var torn = 0
        var overBound = 0
        var gaveUp = false

        var passed: Bool { torn == 0 && overBound == 0 && !gaveUp }

        var description: String {
            "wrote \(written), read \(whole) whole (\(wholeFromPeer) from the peer), \(misses) misses, \(torn) torn, "
                + "\(overBound) over the bound\(gaveUp ? ", gave up waiting for the peer" : "")"
        }
    }

    /// Whole bodies to read from the peer before this process is done.
    static let peerTarget = 20
    /// How long to wait for the peer: only a hang takes this long.
    static let giveUpAfter: Duration = .seconds(120)

    let store: DiskCacheStore
    let directory: URL
    let seed: Int
    let peer: Int?

    init(directory: URL, seed: Int, peer: Int?, maximumBytes: Int) throws {
        store = try DiskCacheStore(directory: directory, maximumBytes: maximumBytes)
        self.directory = directory
        self.seed = seed
        self.peer = peer
    }

    /// Body byte `index` of the body numbered `number`: bodies of two writes differ throughout.
    static func byte(_ index: Int, of number: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: number &* 131 &+ index &* 7 &+ index >> 8)
    }

    private func doneMarker(_ seed: Int) -> String {
        directory.appendingPathComponent("probe-done-\(seed)").path
    }

    func run(rounds: Int) -> Report {
        var report = Report()
        let deadline = ContinuousClock.now + Self.giveUpAfter
        var round = 0
        while true {
            let peerDone = peer.map { FileManager.default.fileExists(atPath: doneMarker($0)) } ?? true
            if round >= rounds && report.wholeFromPeer >= (peer == nil ? 0 : Self.peerTarget) {
                _ = FileManager.default.createFile(atPath: doneMarker(seed), contents: nil)
                if peerDone { return report }
            }
            if ContinuousClock.now > deadline {
                report.gaveUp = true
                return report
            }
            step(round, &report)
            round += 1
        }
    }

    private func step(_ round: Int, _ report: inout Report) {
        let key = CacheKey(method: "GET", url: "http://127.0.0.1/probe/\(Int.random(in: 0..<6))")
        let variant = "v\(Int.random(in: 0..<2))"
        if round % 3 == 0 {
            write(key: key, variant: variant, number: seed * 1_000_000 + round, length: Int.random(in: 0...48 << 10))
            report.written += 1
            if store.storedBytes > store.maximumBytes { report.overBound += 1 }
        } else if round % 50 == 49, let entry = store.entries(for: key).first {
            store.update(entry, to: entry.response)
        } else if round % 97 == 96 {
            store.remove(key)
        } else {
            for entry in store.entries(for: key) { read(entry, &report) }
        }
    }

    private func write(key: CacheKey, variant: String, number: Int, length: Int) {
        let response = StoredResponse(
            statusCode: 200, headerFields: [StoredField(name: "X-Probe", value: "\(number) \(length)")], url: key.url,
            httpVersionMajor: 1, httpVersionMinor: 1, varyingRequestFields: [:], requestTime: Date(), responseTime: Date()
        )
        guard let writer = store.beginStoring(response, for: key, variant: variant, expectedLength: nil) else { return }
        var offset = 0
        while offset < length {
            let count = min(4096, length - offset)
            guard writer.write(Data((offset..<offset + count).map { Self.byte($0, of: number) })) else { return }
            offset += count
        }
        writer.commit()
    }

    /// Reads every entry of `keys`, counting what it finds.
    func readAll(of keys: [CacheKey], into report: inout Report) {
        for key in keys {
            for entry in store.entries(for: key) { read(entry, &report) }
        }
    }

    private func read(_ entry: CacheEntry, _ report: inout Report) {
        let described = entry.response.headerFields.first?.value.split(separator: " ").compactMap { Int($0) } ?? []
        guard described.count == 2, let reader = store.openBody(of: entry) else {
            report.misses += 1
            return
        }
        defer { reader.close() }
        var data = Data()
        do {
            while let chunk = try reader.read(upTo: 4096) { data.append(chunk) }
        } catch {
            report.misses += 1
            return
        }
        let (number, length) = (described[0], described[1])
        guard data.count == length, data.enumerated().allSatisfy({ $0.element == Self.byte($0.offset, of: number) }) else {
            report.torn += 1
            return
        }
        report.whole += 1
        if number / 1_000_000 != seed { report.wholeFromPeer += 1 }
    }
}
