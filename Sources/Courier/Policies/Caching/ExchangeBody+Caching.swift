#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

/// A body on its way into the store, written as the reader reads it; kept only when read whole.
/// A tee let go of before then (its body failed, or was cancelled or dropped part-way) drops
/// what it wrote.
final class CacheBodyTee: Sendable {
    private let writer: any CacheBodyWriter
    /// Whether the writer was committed, abandoned or refused a chunk, so that it is told once.
    /// The chunks come one after another from the body's reader; the flag only settles who
    /// ends the writer, which an atomic does without a lock per chunk.
    private let ended = Atomic<Bool>(false)

    init(_ writer: any CacheBodyWriter) {
        self.writer = writer
    }

    func write(_ chunk: Data) {
        guard !ended.load(ordering: .acquiring) else { return }
        if !writer.write(chunk) { ended.store(true, ordering: .releasing) }
    }

    func commit() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        writer.commit()
    }

    deinit {
        if !ended.load(ordering: .acquiring) { writer.abandon() }
    }
}

extension Data {
    /// This body, kept in the store at once: it arrived whole.
    package func storing(into writer: any CacheBodyWriter) -> Data {
        let tee = CacheBodyTee(writer)
        tee.write(self)
        tee.commit()
        return self
    }

    /// The stored body `reader` reads, whole; nil when it cannot be read to its end.
    package static func stored(_ reader: any CacheBodyReader, url: URL?, metrics: ExchangeMetrics) -> Data? {
        defer { reader.close() }
        var data = Data()
        do {
            while let chunk = try reader.read(upTo: 1 << 20) { data.append(chunk) }
        } catch {
            return nil
        }
        return data
    }
}

extension ResponseBody {
    /// This body, written into the store as its reader reads it: kept when the reader reaches
    /// the end, dropped when the body and its iterator are let go of before it (failed,
    /// cancelled or dropped part-way). The engine finishing is not the end: it may have
    /// delivered the whole body while the reader has yet to read it.
    package func storing(into writer: any CacheBodyWriter) -> ResponseBody {
        let tee = CacheBodyTee(writer)
        return observingChunks { chunk in
            if let chunk { tee.write(chunk) } else { tee.commit() }
        }
    }

    /// The stored body `reader` reads, streamed: read from the store as the reader asks for it,
    /// a few hundred KiB ahead at most. Nil when not even its start can be read.
    package static func stored(_ reader: any CacheBodyReader, url: URL?, metrics: ExchangeMetrics) -> ResponseBody? {
        let pump = StoredBodyPump(reader: reader, url: url, metrics: metrics)
        let storage = ResponseBodyStorage(bufferSize: StoredBodyPump.bufferSize) { action in pump.handle(action) }
        guard pump.start(into: storage) else { return nil }
        return ResponseBody(storage)
    }
}

/// Moves a stored body from the store into a ``ResponseBodyStorage``, pausing when the reader
/// falls behind, as an engine does with the network.
private final class StoredBodyPump: Sendable {
    static let bufferSize = 256 << 10
    private static let chunkSize = 64 << 10

    private struct State {
        var reader: (any CacheBodyReader)?
        /// Held until the body ends; the storage holds this pump through its producer, and the
        /// cycle is broken at the end.
        var storage: ResponseBodyStorage?
    }

    private let state: Locked<State>
    /// The stored response's, named in the error of a body that cannot be read to its end.
    private let url: URL?
    private let metrics: ExchangeMetrics

    init(reader: any CacheBodyReader, url: URL?, metrics: ExchangeMetrics) {
        state = Locked(State(reader: reader))
        self.url = url
        self.metrics = metrics
    }

    /// Fills the buffer for the first time; false when the store could not be read at all.
    func start(into storage: ResponseBodyStorage) -> Bool {
        state.withLock { $0.storage = storage }
        return fill(failingOnFirstRead: false)
    }

    func handle(_ action: ResponseBodyStorage.ProducerAction) {
        switch action {
        case .pause: break
        case .resume: _ = fill(failingOnFirstRead: true)
        case .cancel: end()
        }
    }

    /// Writes chunks until the storage asks for a pause or the body ends. Only one fill runs at
    /// a time: the storage asks to resume only after a write was refused, which ends a fill.
    private func fill(failingOnFirstRead: Bool) -> Bool {
        var first = true
        while true {
            guard let (reader, storage) = state.withLock({ state in state.reader.flatMap { reader in state.storage.map { (reader, $0) } } })
            else { return true }
            let chunk: Data?
            do {
                chunk = try reader.read(upTo: Self.chunkSize)
            } catch {
                end()
                if first && !failingOnFirstRead { return false }
                let what = "the body of GET \(url?.absoluteString ?? "?") stored in the cache could not be read to its end: \(error)"
                storage.fail(URLError(.resourceUnavailable, what, url: url, underlying: error), metrics: metrics)
                return true
            }
            first = false
            guard let chunk else {
                end()
                storage.finish(metrics: metrics)
                return true
            }
            if !storage.write(chunk) { return true }
        }
    }

    private func end() {
        let reader = state.withLock { state in
            defer { state.reader = nil; state.storage = nil }
            return state.reader
        }
        reader?.close()
    }
}
