#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Reads a body file through the descriptor opened when the entry was looked up: a file
/// replaced or removed meanwhile is still read whole.
final class DiskCacheBodyReader: CacheBodyReader {
    private struct State {
        /// -1 once closed.
        var descriptor: Int32
        var read = 0
    }

    private let length: Int
    private let state: Locked<State>

    init(descriptor: Int32, length: Int) {
        self.length = length
        state = Locked(State(descriptor: descriptor))
    }

    deinit {
        close()
    }

    func read(upTo maximumBytes: Int) throws -> Data? {
        try state.withLock { state in
            guard state.descriptor >= 0 else { throw CacheReadError.closed }
            let wanted = min(max(1, maximumBytes), length - state.read)
            guard wanted > 0 else { return nil }
            var chunk = Data(count: wanted)
            let descriptor = state.descriptor
            var count: Int
            repeat {
                count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, wanted) }
            } while count < 0 && errno == EINTR
            if count < 0 { throw CacheReadError.failed(errno: errno) }
            if count == 0 { throw CacheReadError.truncated(read: state.read, expected: length) }
            state.read += count
            chunk.count = count
            return chunk
        }
    }

    func close() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            Foundation.close(state.descriptor)
            state.descriptor = -1
        }
    }
}

/// Writes a body to a temporary file as it arrives, a chunk at a time, and hands it to the store
/// to be renamed into place when it is whole.
final class DiskCacheBodyWriter: CacheBodyWriter {
    /// What the body is for, and where it is written.
    struct Target: Sendable {
        var key: CacheKey
        var variant: String
        var response: StoredResponse
        /// The body file's unique part.
        var body: String
        var temporaryFile: String
    }

    private struct State {
        /// -1 once the writer has ended.
        var descriptor: Int32
        var written = 0
    }

    private let store: DiskCacheStore
    private let target: Target
    private let bodyLimit: Int
    private let state: Locked<State>

    init(store: DiskCacheStore, target: Target, descriptor: Int32, bodyLimit: Int) {
        self.store = store
        self.target = target
        self.bodyLimit = bodyLimit
        state = Locked(State(descriptor: descriptor))
    }

    deinit {
        // Dropped without commit or abandon: nothing of it stays.
        abandon()
    }

    func write(_ chunk: Data) -> Bool {
        state.withLock { state in
            guard state.descriptor >= 0 else { return false }
            guard chunk.count <= bodyLimit - state.written, DiskFiles.writeAll(chunk, to: state.descriptor) else {
                discard(&state)
                return false
            }
            state.written += chunk.count
            return true
        }
    }

    func commit() {
        let length: Int? = state.withLock { state in
            guard state.descriptor >= 0 else { return nil }
            defer { state.descriptor = -1 }
            guard Foundation.close(state.descriptor) == 0 else {
                unlink(target.temporaryFile)
                return nil
            }
            return state.written
        }
        if let length { store.commit(target, bodyLength: length) }
    }

    func abandon() {
        state.withLock(discard)
    }

    private func discard(_ state: inout State) {
        guard state.descriptor >= 0 else { return }
        Foundation.close(state.descriptor)
        state.descriptor = -1
        unlink(target.temporaryFile)
    }
}
