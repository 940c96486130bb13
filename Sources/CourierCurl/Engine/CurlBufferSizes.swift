import Foundation

/// The sizes of libcurl's two buffers for one transfer: `CURLOPT_BUFFERSIZE` (the receive
/// buffer: how much one socket read, and so one call of the write callback, carries) and
/// `CURLOPT_UPLOAD_BUFFERSIZE` (what the read callback fills and one `send` carries).
///
/// Why per transfer: libcurl 7.88 `malloc`s both for every transfer and frees them when it
/// ends. A large buffer is served by fresh pages that fault in on first use, so a size that
/// suits a streamed 10 MiB body made every small request pay for it.
struct CurlBufferSizes: Equatable {
    var receive: Int
    var upload: Int

    /// libcurl's own defaults, which a new easy handle starts with.
    static let libcurlReceiveDefault = 16 << 10
    static let libcurlUploadDefault = 64 << 10
    /// libcurl's smallest upload buffer (`UPLOADBUFFER_MIN`); it raises anything below.
    static let libcurlUploadMinimum = 16 << 10

    /// The receive buffer of a response that may be large and is collected: the body of a
    /// request without one (a GET), since libcurl's 16 KiB default costs a large body far more
    /// CPU (Benchmarks/README.md, "Uploads and bursts on the curl engine"). Also the size of the chunks handed to a streamed body's reader, gathered from
    /// several reads (see ``CurlTransfer/flushStreamedBody(atTurnEnd:)``): each chunk wakes a
    /// reader that keeps up.
    static let largeReceive = 256 << 10
    /// The receive buffer of a streamed body. Smaller than ``largeReceive`` so that a read which
    /// fills it says the socket holds more (a read rarely fills 256 KiB, so a full one would say
    /// little; see "Streamed reads" in Benchmarks/README.md), which lets the transfer gather reads
    /// into chunks without holding any byte back; and a block of this size comes from the heap
    /// rather than from fresh pages that fault in on every transfer.
    static let streamedReceive = 64 << 10
    /// libcurl's 64 KiB default: what it sends per `send` of a body it reads through the read
    /// callback. Bodies below it get a buffer of their own size (libcurl raises it to 16 KiB).
    static let dataUploadMaximum = libcurlUploadDefault

    init(receive: Int, upload: Int) {
        self.receive = receive
        self.upload = upload
    }

    /// A request that sends a body gets libcurl's 16 KiB receive buffer, since its answer is
    /// usually short: with 256 KiB for both directions, many POSTs in flight make the heap grow
    /// and shrink on every transfer, and the body's copy into the upload buffer faults in fresh
    /// pages (Benchmarks/README.md, "POST 64 KiB, 16 in flight").
    init(for transfer: CurlTransfer) {
        let sendsBody = transfer.uploadReader != nil || !transfer.plan.body.isEmpty
        if transfer.bodyStorage != nil {
            receive = Self.streamedReceive
        } else {
            receive = sendsBody ? Self.libcurlReceiveDefault : Self.largeReceive
        }
        if transfer.uploadReader != nil {
            upload = Self.libcurlUploadDefault
        } else {
            upload = min(max(transfer.plan.body.count, Self.libcurlUploadMinimum), Self.dataUploadMaximum)
        }
    }
}
