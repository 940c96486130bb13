import Foundation

extension MultipartForm {
    /// One field of a ``MultipartForm``: its name, its content, and for a file its file name and
    /// type.
    ///
    /// Names and file names are sent in the `Content-Disposition` header as the WHATWG HTML
    /// standard's multipart/form-data encoding writes them, which browsers and the servers that
    /// read their forms agree on: as UTF-8, with `"` written `%22`, CR `%0D` and LF `%0A`, and
    /// nothing else changed. A part with a file name has a `Content-Type`,
    /// `application/octet-stream` unless one is given; a text field has none.
    public struct Part: Sendable, Equatable {
        /// What a part holds.
        package enum Content: Sendable, Equatable {
            case data(Data)
            case file(URL)
        }

        /// The field's name.
        public var name: String
        /// The file name sent with the part; `nil` for a plain field.
        public var filename: String?
        /// The part's `Content-Type`; when `nil`, a part with a file name is sent as
        /// `application/octet-stream` and a field without one has no `Content-Type`.
        public var contentType: String?
        package var content: Content
        /// Whether a part with a file name and no ``contentType`` goes out as
        /// `application/octet-stream`, as browsers send a file. The `courier` tool clears it to
        /// send what curl sends, which types a part by its file name alone and leaves one it
        /// cannot place, such as standard input's (`-F name=@-`), without a `Content-Type`.
        package var labelsUntypedFile = true

        package init(name: String, filename: String?, contentType: String?, content: Content) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.content = content
        }

        /// A text field, sent as UTF-8.
        public static func text(_ name: String, _ value: String) -> Part {
            Part(name: name, filename: nil, contentType: nil, content: .data(Data(value.utf8)))
        }

        /// Bytes in memory; with a `filename` they are sent as a file, as a browser sends a
        /// file field.
        public static func data(_ name: String, _ data: Data, filename: String? = nil, contentType: String? = nil) -> Part {
            Part(name: name, filename: filename, contentType: contentType, content: .data(data))
        }

        /// The file at `url`, read in pieces while it is sent, so memory stays bounded whatever
        /// its size. The file name sent is `filename`, or the last component of `url`.
        ///
        /// The file's size is read when the form becomes a ``RequestBody``, and its bytes while
        /// they are sent: a file that has grown or shrunk by then fails the upload with
        /// ``MultipartFormError/fileChangedSize(path:field:expected:actual:)``.
        public static func file(_ name: String, _ url: URL, filename: String? = nil, contentType: String? = nil) -> Part {
            Part(name: name, filename: filename ?? url.lastPathComponent, contentType: contentType, content: .file(url))
        }
    }
}
