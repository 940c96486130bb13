#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Where the response bodies of the exchanges a task sends go, which decides what bounds them:
/// a body kept in memory stops at ``Policies/maximumResponseBytes``; one that a download writes
/// to a file is bounded by the disk, as URLSession's and AsyncHTTPClient's file downloads are.
///
/// Task-local, so that the download sets it once around its streamed call and every layer and
/// engine below sees the same answer, with nothing added to the request or to the engine seam.
/// An engine reads it when it starts an exchange: the limit is fixed from then on.
package enum ResponseBodyDestination: Sendable, Equatable {
    /// Collected, or read by a caller who may keep it: ``Policies/maximumResponseBytes`` applies.
    case memory
    /// Written to a file a chunk at a time as it is read.
    case file

    /// The destination of the bodies the current task's exchanges answer with.
    @TaskLocal package static var current = ResponseBodyDestination.memory

    /// The most bytes a body going here may have, where `maximumResponseBytes` bounds one in
    /// memory.
    package func limit(inMemory maximumResponseBytes: Int) -> Int {
        self == .file ? .max : maximumResponseBytes
    }
}

extension StreamingLayers {
    /// Marks the exchanges below as downloads into a file (``ResponseBodyDestination/file``),
    /// so that no engine bounds their bodies by ``Policies/maximumResponseBytes``.
    package static func writingToFile() -> StreamingNetworkingLayer {
        ExchangeLayer { next in
            { request, upload in
                try await ResponseBodyDestination.$current.withValue(.file) { try await next(request, upload) }
            }
        }
    }

    /// `streaming` as a download into a file, with `progress`, when given, told how it goes:
    /// the layers both of the file vocabulary's downloads send through.
    package static func download(
        over streaming: @escaping StreamingNetworking, progress: (@Sendable (TransferProgress) -> Void)?
    ) -> StreamingNetworking {
        layered(streaming, [writingToFile()] + (progress.map { [reportingProgress($0)] } ?? []))
    }
}
