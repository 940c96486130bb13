import Foundation

extension RequestBody {
    /// A ``MultipartForm`` as a `multipart/form-data` body, with its ``contentType`` (the
    /// boundary) and its ``length``, so that it goes out with `Content-Length`, never chunked.
    ///
    /// ```swift
    /// let upload = try RequestBody.multipart(MultipartForm([.text("title", "Report"), .file("pdf", report)]))
    /// let (body, head) = try await client.stream(Request("reports", method: .post), uploading: upload)
    /// ```
    ///
    /// Bytes in memory are laid out at once; a file is read in 64 KiB pieces while it is sent,
    /// so memory stays bounded whatever its size. The body can be sent again (a 307 or 308
    /// redirect, a retry): each time, the files are read anew.
    ///
    /// The boundary is drawn at random (190 bits) and checked against every byte held in memory,
    /// and another drawn should it occur there. A file cannot be checked before it is sent
    /// without reading it twice, so it is checked while it is read: should the boundary occur
    /// in it, the upload stops before those bytes go out and fails with
    /// ``MultipartFormError/boundaryInFile(path:field:)`` (see ``MultipartFormError`` for how
    /// each engine reports it); the chance is about one in 2^190 per position.
    ///
    /// - Throws: ``MultipartFormError/invalidContentType(field:value:)`` for a part's
    ///   `Content-Type` with a control character; the file system's error when a file's size
    ///   cannot be read, as ``file(_:)`` throws. Nothing has been sent.
    public static func multipart(_ form: MultipartForm) throws -> RequestBody {
        try multipart(MultipartLayout(form: form, fileSize: fileSize(of:)))
    }

    /// The body of a laid-out form.
    package static func multipart(_ layout: MultipartLayout) -> RequestBody {
        var body: RequestBody
        let segments = layout.segments
        if segments.count == 1, case .bytes(let data) = segments[0] {
            body = .data(data)
        } else {
            let boundary = layout.boundary
            body = RequestBody(source: .chunks({ send in
                for segment in segments {
                    switch segment {
                    case .bytes(let data):
                        try await send(data)
                    case .file(let url, let size, let field):
                        try await sendFile(url, size: size, field: field, boundary: boundary, send: send)
                    }
                }
            }), length: layout.length)
            body.producesAgain = true
        }
        body.contentType = layout.contentType
        return body
    }

    /// Sends the file a piece at a time, each piece checked for the boundary before it goes.
    private static func sendFile(
        _ url: URL, size: Int64, field: String, boundary: String, send: (Data) async throws -> Void
    ) async throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var scanner = BoundaryScanner(boundary: boundary)
        var sent: Int64 = 0
        while true {
            try Task.checkCancellation()
            guard let chunk = try handle.read(upToCount: UploadBodyReader.fileChunkSize), !chunk.isEmpty else { break }
            sent += Int64(chunk.count)
            guard sent <= size else {
                throw MultipartFormError.fileChangedSize(path: url.path, field: field, expected: size, actual: sent)
            }
            if scanner.found(in: chunk) {
                throw MultipartFormError.boundaryInFile(path: url.path, field: field)
            }
            try await send(chunk)
        }
        guard sent == size else {
            throw MultipartFormError.fileChangedSize(path: url.path, field: field, expected: size, actual: sent)
        }
    }
}
