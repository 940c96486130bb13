import Foundation
import Courier

// What libcurl's callbacks do with a transfer, on the curl thread inside the calls that drive
// libcurl: each hands its bytes to one of the transfer's values, and turns what that value
// says into a lifecycle event and libcurl's return code.
extension CurlTransfer {
    /// Copies one header line (see ``CurlHeadCapture``); when a streamed body's head is
    /// complete, hands it to the awaiting task with what libcurl measured up to it.
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Int {
        switch head.receive(line) {
        case .kept:
            return line.count
        case .tooLarge(let error):
            stopReason.record(.exceededLimit(error))
            return 0
        case .headComplete:
            if measurements.recordsMetrics, let easy { measurements.recordHead(Curl.transferInfo(easy)) }
            switch withState({ $0.headReceived() }) {
            case .none: return line.count
            case .handOverHead(let continuation):
                deliver(.head(continuation))
                return line.count
            case .abort: return 0
            }
        }
    }

    /// Progress from libcurl (at least once a second while idle, thanks to the low-speed
    /// backstop): records the bytes moved for the idle clock, which the event loop checks (see
    /// ``CurlIdleClock``). Never aborts: an overdue transfer is ended by the loop.
    func progress(downloaded: Int64, uploaded: Int64) -> Int32 {
        idleClock.progress(moved: downloaded &+ uploaded &+ Int64(head.byteCount))
        return 0
    }

    /// Copies the next part of the request body into libcurl's upload buffer; 0 at the end.
    /// When a streamed upload's producer is behind, sending pauses until it catches up.
    func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        switch upload.read(into: buffer) {
        case .bytes(let count):
            return count
        case .end:
            return 0
        case .starved:
            switch withState({ $0.uploadStarved() }) {
            case .paused: return Curl.readPause
            case .abort: return Curl.readAbort
            }
        case .failed(let error):
            stopReason.record(.bodyStreamFailed(error))
            return Curl.readAbort
        }
    }

    func seekBody(to offset: Int64, origin: Int32) -> Int32 {
        upload.seek(to: offset, origin: origin)
    }

    /// See ``CurlUpload/borrowedBody(shape:)``.
    func borrowedBody() -> UnsafeMutableRawPointer? {
        upload.borrowedBody(shape: plan.shape)
    }

    /// Takes decoded body bytes: into the collected body, stopping the transfer once they pass
    /// the limit, or on their way to the reader of a streamed body.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if let taken = body.withStreamed({ streamed, storage in streamBody(bytes, &streamed, to: storage) }) { return taken }
        let easy = self.easy
        if case .some(.some(let error)) = body.withCollected({ $0.append(bytes, contentLength: { easy.flatMap(Curl.contentLength) }) }) {
            stopReason.record(.exceededLimit(error))
            return 0
        }
        return bytes.count
    }

    /// Hands a streamed body's bytes to its reader (see ``CurlStreamedBody``): no limit
    /// applies, since the reader's buffer bounds memory. Once the buffer is full the bytes are
    /// refused with `CURL_WRITEFUNC_PAUSE`, which libcurl keeps and delivers again when unpaused.
    private func streamBody(_ bytes: UnsafeRawBufferPointer, _ streamed: inout CurlStreamedBody, to storage: ResponseBodyStorage) -> Int {
        if withState({ $0.receivePaused }) { return Curl.writePause }
        guard !bytes.isEmpty else { return bytes.count }
        if streamed.mustHandOver(before: bytes.count), !handOverChunk(&streamed, to: storage) { return 0 }
        if streamed.gather(bytes), !handOverChunk(&streamed, to: storage) { return 0 }
        return bytes.count
    }

    /// Hands the gathered piece of a streamed body to its reader when
    /// ``CurlStreamedBody/handsOver(atTurnEnd:socketHoldsMore:)`` says so; called by the event
    /// loop after each turn of libcurl (`atTurnEnd`) and before the transfer completes.
    func flushStreamedBody(atTurnEnd: Bool = false) {
        let easy = self.easy
        body.withStreamed { streamed, storage in
            let handsOver = streamed.handsOver(
                atTurnEnd: atTurnEnd,
                socketHoldsMore: easy.flatMap(Curl.activeSocket).map { Curl.hasUnreadBytes(socket: $0) } ?? false
            )
            if handsOver { _ = handOverChunk(&streamed, to: storage) }
        }
    }

    /// False when the transfer must stop (an impossible state, see ``CurlTransferState``).
    private func handOverChunk(_ streamed: inout CurlStreamedBody, to storage: ResponseBodyStorage) -> Bool {
        guard let chunk = streamed.takeChunk(), !storage.write(chunk) else { return true }
        switch withState({ $0.readerFull() }) {
        case .paused: return true
        case .abort: return false
        }
    }

    // The callbacks borrow the transfer rather than retain it for the call: the event loop holds
    // it for as long as its handle runs, and these run many times per request on the curl thread.

    /// CURLOPT_WRITEFUNCTION; `context` is the unretained transfer.
    static let bodyCallback: Curl.WriteCallback = { data, size, count, context in
        guard let context else { return 0 }
        let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.receiveBody(bytes) }
    }

    /// CURLOPT_READFUNCTION; `context` is the unretained transfer.
    static let readCallback: Curl.ReadCallback = { data, size, count, context in
        guard let context, let data else { return 0 }
        let buffer = UnsafeMutableRawBufferPointer(start: data, count: size * count)
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.sendBody(into: buffer) }
    }

    /// CURLOPT_SEEKFUNCTION; `context` is the unretained transfer.
    static let seekCallback: Curl.SeekCallback = { context, offset, origin in
        guard let context else { return Curl.seekFailed }
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
            $0.seekBody(to: Int64(offset), origin: origin)
        }
    }

    /// CURLOPT_XFERINFOFUNCTION; `context` is the unretained transfer.
    static let progressCallback: Curl.ProgressCallback = { context, _, downloaded, _, uploaded in
        guard let context else { return 0 }
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
            $0.progress(downloaded: Int64(downloaded), uploaded: Int64(uploaded))
        }
    }

    /// CURLOPT_HEADERFUNCTION; `context` is the unretained transfer.
    static let headerCallback: Curl.WriteCallback = { data, size, count, context in
        guard let context else { return 0 }
        let line = UnsafeRawBufferPointer(start: data, count: size * count)
        return Unmanaged<CurlTransfer>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.receiveHeader(line) }
    }
}
