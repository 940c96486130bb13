#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A form laid out on the wire: the bytes in memory between the files, the files to read between
/// them, the boundary that frames them and the body's length.
package struct MultipartLayout: Sendable, Equatable {
    package enum Segment: Sendable, Equatable {
        /// Delimiters, part headers and in-memory contents, joined.
        case bytes(Data)
        /// A file to read while sending: `size` bytes when the layout was made.
        case file(URL, size: Int64, field: String)
    }

    package let boundary: String
    package let segments: [Segment]

    /// The body's length, `Content-Length`.
    package var length: Int64 {
        segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): total + Int64(data.count)
            case .file(_, let size, _): total + size
            }
        }
    }

    /// `multipart/form-data; boundary=…`; the boundary needs no quotes (letters and digits).
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Tries a new boundary this many times when one occurs in the form's in-memory bytes.
    static let boundaryAttempts = 8

    /// Lays out `form` with the first boundary from `nextBoundary` that occurs nowhere in the
    /// form's in-memory bytes (part headers and contents).
    ///
    /// - Throws: ``MultipartFormError/invalidContentType(field:value:)``; what `fileSize`
    ///   throws; ``RequestError/bodyEncodingFailed(description:)`` when every boundary tried
    ///   occurs in the parts (with random boundaries, never).
    package init(
        form: MultipartForm,
        nextBoundary: () -> String = MultipartLayout.randomBoundary,
        fileSize: (URL) throws -> Int64
    ) throws {
        var heads: [Data] = []
        var contents: [Segment] = []
        for part in form.parts {
            heads.append(try Self.head(of: part))
            switch part.content {
            case .data(let data): contents.append(.bytes(data))
            case .file(let url): contents.append(.file(url, size: try fileSize(url), field: part.name))
            }
        }
        let inMemory = heads + contents.compactMap { if case .bytes(let data) = $0 { data } else { nil } }
        for _ in 0..<Self.boundaryAttempts {
            let candidate = nextBoundary()
            let pattern = Data(candidate.utf8)
            guard !inMemory.contains(where: { Self.occurs(pattern, in: $0) }) else { continue }
            boundary = candidate
            segments = Self.segments(heads: heads, contents: contents, boundary: candidate)
            return
        }
        throw RequestError.bodyEncodingFailed(
            description: "every multipart boundary tried (\(Self.boundaryAttempts)) occurs in the form's parts"
        )
    }

    /// `--boundary CRLF head content CRLF` per part, then `--boundary-- CRLF`, with adjacent
    /// bytes joined so that a file is the only thing between two byte segments.
    private static func segments(heads: [Data], contents: [Segment], boundary: String) -> [Segment] {
        var segments: [Segment] = []
        var pending = Data()
        for (head, content) in zip(heads, contents) {
            pending.append(contentsOf: Array("--\(boundary)\r\n".utf8))
            pending.append(head)
            switch content {
            case .bytes(let data):
                pending.append(data)
            case .file:
                segments.append(.bytes(pending))
                segments.append(content)
                pending = Data()
            }
            pending.append(contentsOf: Array("\r\n".utf8))
        }
        pending.append(contentsOf: Array("--\(boundary)--\r\n".utf8))
        segments.append(.bytes(pending))
        return segments
    }

    /// The part's header block, ending with its blank line.
    static func head(of part: MultipartForm.Part) throws(MultipartFormError) -> Data {
        var head = "Content-Disposition: form-data; name=\"\(escaped(part.name))\""
        if let filename = part.filename { head += "; filename=\"\(escaped(filename))\"" }
        head += "\r\n"
        if let type = part.contentType ?? (part.filename != nil && part.labelsUntypedFile ? "application/octet-stream" : nil) {
            guard HTTPFieldSyntax.problem(inValue: type) == nil else {
                throw .invalidContentType(field: part.name, value: type)
            }
            head += "Content-Type: \(type)\r\n"
        }
        head += "\r\n"
        return Data(head.utf8)
    }

    /// A name or file name as the WHATWG multipart/form-data encoding writes it: `"`, CR and
    /// LF percent-encoded, everything else as its UTF-8 bytes.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        // By scalar, not Character: "\r\n" is one Character and must become %0D%0A.
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `CourierFormBoundary` and 32 letters and digits drawn from the system's generator:
    /// about 190 bits, 51 characters, within RFC 2046's 70.
    package static func randomBoundary() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        let suffix = (0..<32).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return "CourierFormBoundary" + String(decoding: suffix, as: UTF8.self)
    }

    /// Whether `pattern` occurs in `data`.
    static func occurs(_ pattern: Data, in data: Data) -> Bool {
        guard !pattern.isEmpty, data.count >= pattern.count else { return false }
        return data.withUnsafeBytes { haystack in
            pattern.withUnsafeBytes { needle in
                guard let haystackBase = haystack.baseAddress, let needleBase = needle.baseAddress else { return false }
                // memchr for the first byte, then memcmp: both vectorised by the C library, so
                // a file is scanned at memory speed even in a debug build.
                let first = Int32(needle[0])
                let lastStart = haystack.count - needle.count
                var start = 0
                while start <= lastStart {
                    guard let hit = memchr(haystackBase + start, first, lastStart - start + 1) else { return false }
                    if memcmp(hit, needleBase, needle.count) == 0 { return true }
                    start = haystackBase.distance(to: UnsafeRawPointer(hit)) + 1
                }
                return false
            }
        }
    }
}
