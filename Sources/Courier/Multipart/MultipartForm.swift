import Foundation

/// An HTML form sent as `multipart/form-data` (RFC 7578): text fields, bytes in memory and files
/// read from disk while they are sent.
///
/// ```swift
/// let form = MultipartForm([
///     .text("title", "Holiday"),
///     .file("photo", URL(filePath: "/tmp/beach.jpg"), contentType: "image/jpeg"),
/// ])
/// let upload = try RequestBody.multipart(form)
/// let receipt: Receipt = try await client.send(Request("photos", method: .post(upload)))
/// ```
///
/// A form becomes a ``RequestBody`` with ``RequestBody/multipart(_:)``, which chooses the
/// boundary and sets the body's ``RequestBody/contentType``; ``APIClient/send(_:)-(Request<Response>)``
/// sends that `Content-Type` unless the request's headers name one. Names and file names are
/// written as browsers write them (see ``Part``).
public struct MultipartForm: Sendable, Equatable {
    /// The parts, in the order they are sent.
    public var parts: [Part]

    /// A form with `parts`, sent in that order.
    public init(_ parts: [Part] = []) {
        self.parts = parts
    }
}
