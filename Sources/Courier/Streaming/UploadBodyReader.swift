import Foundation

/// The engine's side of a ``RequestBody``: reads that never block, fed by a task that produces
/// the body into a bounded buffer.
///
/// The engine calls ``read(into:)`` on its own thread. When nothing is buffered yet the read
/// returns ``UploadBodyState/Read/wait``; the engine pauses the upload and `onReadable` is
/// called, from the producing task, once it can go on. Bytes in memory are read in place;
/// a file is read in pieces on the producing task; a sequence is iterated there.
package final class UploadBodyReader: Sendable {
    package typealias Read = UploadBodyState<UnsafeContinuation<Void, Never>>.Read
    typealias State = UploadBodyState<UnsafeContinuation<Void, Never>>

    /// Bytes read from a file in one piece.
    static let fileChunkSize = 64 << 10

    private let state: Locked<State>
    private let onReadable: @Sendable () -> Void
    private let producer = Locked<Task<Void, Never>?>(nil)
    private let body: RequestBody

    /// `bufferSize` bytes at most wait to be sent.
    package init(_ body: RequestBody, bufferSize: Int = 256 << 10, onReadable: @escaping @Sendable () -> Void) {
        self.body = body
        self.onReadable = onReadable
        state = Locked(UploadBodyState(capacity: bufferSize))
        if case .data(let data) = body.source {
            // Nobody reads or produces yet: nothing to tell.
            state.withLock { state in
                _ = state.append(data)
                _ = state.finish(nil)
            }
        }
    }

    /// Starts producing the body; reads before this find nothing buffered.
    package func start() {
        let produce: @Sendable (_ send: (Data) async throws -> Void) async throws -> Void
        switch body.source {
        case .data:
            return
        case .file(let url):
            produce = { send in try await Self.readFile(url, send: send) }
        case .chunks(let chunks):
            produce = chunks
        }
        let task = Task { [self] in
            do {
                try await produce { chunk in try await self.send(chunk) }
                perform(state.withLock { $0.finish(nil) })
            } catch {
                perform(state.withLock { $0.finish(error) })
            }
        }
        producer.withLock { $0 = task }
    }

    /// Copies buffered bytes into `buffer`; never waits.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        let (action, total) = state.withLock { state in
            (state.read(into: buffer), state.bytesRead)
        }
        switch action {
        case .copied: body.readObserver?(total)
        case .copiedAndResumeProducer(_, let producer):
            producer.resume()
            body.readObserver?(total)
        case .wait, .end, .failed: break
        }
        return action.read
    }

    /// Why the body could not be produced, once a read returned ``UploadBodyState/Read/failed``.
    package var failure: (any Error)? { state.withLock { $0.failure } }

    /// Bytes handed to the engine so far.
    package var bytesRead: Int64 { state.withLock { $0.bytesRead } }

    /// The transfer ended: the producing task is cancelled and released.
    package func cancel() {
        if case .resumeProducer(let waiting) = state.withLock({ $0.cancel(with: CancellationError()) }) { waiting.resume() }
        producer.withLock { $0 }?.cancel()
    }

    deinit {
        producer.withLock { $0 }?.cancel()
    }

    private func send(_ chunk: Data) async throws {
        if state.withLock({ $0.append(chunk) }) == .notifyReader { onReadable() }
        await withUnsafeContinuation { continuation in
            switch state.withLock({ $0.waitForSpace(continuation) }) {
            case .resumeProducer(let continuation): continuation.resume()
            case .wait: break
            }
        }
        if state.withLock({ $0.isEnded }) { throw CancellationError() }
    }

    private func perform(_ action: State.FinishAction) {
        switch action {
        case .none: break
        case .notifyReader: onReadable()
        case .resumeProducer(let producer): producer.resume()
        case .notifyReaderAndResumeProducer(let producer):
            producer.resume()
            onReadable()
        }
    }

    private static func readFile(_ url: URL, send: (Data) async throws -> Void) async throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while true {
            try Task.checkCancellation()
            guard let chunk = try handle.read(upToCount: fileChunkSize), !chunk.isEmpty else { return }
            try await send(chunk)
        }
    }
}
