import Foundation

/// Why a ``MultipartForm`` could not be sent.
///
/// The first case is thrown by ``RequestBody/multipart(_:)`` before anything is sent. The other
/// two are found while a file is read, when part of the body may have gone out already: the
/// upload is stopped there, so the server sees a body shorter than its `Content-Length`, never a
/// complete body framed wrongly (URLSession's engine writes a streamed body to a temporary file
/// first, so there no byte is sent). Both engines then fail the call with
/// `URLError(.unknown)`, as for any request body whose producer threw, described as
/// `producing the request body failed: ` and this error's words.
public enum MultipartFormError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A part's `Content-Type` holds CR, LF or another control character, which would end the
    /// part's header early.
    case invalidContentType(field: String, value: String)
    /// The boundary, chosen at random with 190 bits of entropy, occurs in a file: the file could
    /// not be scanned before it was sent without reading it twice. A new body from the same form
    /// (``RequestBody/multipart(_:)`` again) has another boundary.
    case boundaryInFile(path: String, field: String)
    /// A file had `expected` bytes when the form became a ``RequestBody`` and `actual` when it
    /// was read (at least that many when it had grown), so the `Content-Length` sent was wrong.
    case fileChangedSize(path: String, field: String, expected: Int64, actual: Int64)

    public var description: String {
        switch self {
        case .invalidContentType(let field, let value):
            return "multipart field \(field.debugDescription): Content-Type \(value.debugDescription) holds a control character"
        case .boundaryInFile(let path, let field):
            return "multipart field \(field.debugDescription): the file \(path) contains the form's boundary; the upload was stopped before it was framed wrongly (a new body from the form picks another)"
        case .fileChangedSize(let path, let field, let expected, let actual):
            let found = actual > expected ? "more than \(expected)" : "\(actual)"
            return "multipart field \(field.debugDescription): the file \(path) had \(expected) bytes when the body was built and \(found) when it was sent"
        }
    }
}
