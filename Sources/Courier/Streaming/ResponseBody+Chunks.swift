#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension ResponseBody {
    /// A body read from `chunks` as its reader asks for them, for an engine of your own that
    /// receives its body as an `AsyncSequence` (see ``TransportEngine``).
    ///
    /// The chunks are read ahead of the reader by at most 1 MiB, then
    /// reading pauses until the reader catches up. When the reader cancels or drops the body,
    /// the task reading `chunks` is cancelled; an error `chunks` throws is what the reader's
    /// next read throws, after the chunks before it.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        let pump = ChunkPump()
        let storage = ResponseBodyStorage { action in pump.handle(action) }
        pump.start(reading: chunks, into: storage)
        self.init(storage)
    }
}

/// Reads a sequence of chunks into a body's storage, waiting while the reader is full and
/// stopping when the reader went away.
private final class ChunkPump: Sendable {
    private struct State {
        var task: Task<Void, Never>?
        /// The pump, waiting for the reader to drain.
        var waiting: CheckedContinuation<Bool, Never>?
        /// The reader drained before the pump began to wait.
        var resumed = false
        var cancelled = false
    }

    private let state = Locked(State())

    func start<Chunks: AsyncSequence & Sendable>(reading chunks: Chunks, into storage: ResponseBodyStorage) where Chunks.Element == Data {
        let task = Task {
            do {
                for try await chunk in chunks where !chunk.isEmpty {
                    if !storage.write(chunk), await !waitForReader() { return }
                }
                storage.finish()
            } catch {
                storage.fail(error)
            }
        }
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Called by the storage, outside its lock.
    func handle(_ action: ResponseBodyStorage.ProducerAction) {
        switch action {
        case .pause:
            break  // the pump learns it from `write` returning false
        case .resume:
            let waiting = state.withLock { state in
                defer { state.waiting = nil }
                if state.waiting == nil { state.resumed = true }
                return state.waiting
            }
            waiting?.resume(returning: true)
        case .cancel:
            let (waiting, task) = state.withLock { state in
                defer { state.waiting = nil }
                state.cancelled = true
                return (state.waiting, state.task)
            }
            task?.cancel()
            waiting?.resume(returning: false)
        }
    }

    /// Waits until the reader drained the buffer; false when it went away instead.
    private func waitForReader() async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if state.cancelled { return false }
                if state.resumed {
                    state.resumed = false
                    return true
                }
                state.waiting = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
