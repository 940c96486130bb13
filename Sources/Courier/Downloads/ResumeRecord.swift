import Foundation

/// What a resumable download keeps beside its partial file, `FILE.courier-resume`: the format
/// version, the URL asked for (redacted, so no password reaches the disk) and the validator the
/// response had when the file was started.
///
/// A file of its own rather than an extended attribute, which not every file system keeps (nor
/// `cp` or an archive), or bytes inside the download, which would no longer be the body. It is
/// written whole to a temporary name and renamed, so a crash leaves the old record or the new
/// one, never half of one; and it is written only after the partial file was truncated, so a
/// record never vouches for bytes of another version.
package struct ResumeRecord: Sendable, Equatable {
    package var url: String
    package var validator: ResumeValidator

    package init(url: String, validator: ResumeValidator) {
        self.url = url
        self.validator = validator
    }

    /// The first line; a later format gets a new number, and a reader skips what it does not know.
    private static let header = "courier-resume 1"

    /// Largest record read; anything longer is not a record this code wrote.
    private static let maximumSize = 4 * ResumeValidator.maximumLength

    /// Where the record of the download into `file` lives.
    package static func location(for file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".courier-resume")
    }

    /// The record as the lines written to disk.
    package var encoded: Data {
        let validatorLine = switch validator {
        case .entityTag(let tag): "etag " + tag
        case .lastModified(let date): "last-modified " + date
        }
        return Data([Self.header, "url " + url, validatorLine, ""].joined(separator: "\n").utf8)
    }

    /// A record from its lines; `nil` for another version, a damaged file or anything else.
    package init?(decoding data: Data) {
        guard data.count <= Self.maximumSize, let text = String(data: data, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[0] == Self.header, lines[3].isEmpty, lines[1].hasPrefix("url ") else { return nil }
        let validatorLine = lines[2]
        let validator: ResumeValidator
        if validatorLine.hasPrefix("etag ") {
            validator = .entityTag(String(validatorLine.dropFirst(5)))
        } else if validatorLine.hasPrefix("last-modified ") {
            validator = .lastModified(String(validatorLine.dropFirst(14)))
        } else {
            return nil
        }
        guard !validator.fieldValue.isEmpty, validator.fieldValue.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return nil }
        self.init(url: String(lines[1].dropFirst(4)), validator: validator)
    }

    /// The record at `location`, or `nil` when there is none or it cannot be read as one.
    package static func load(from location: URL) -> ResumeRecord? {
        guard let handle = try? FileHandle(forReadingFrom: location) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumSize + 1) else { return nil }
        return ResumeRecord(decoding: data)
    }

    /// Writes the record to `location` atomically.
    package func store(at location: URL) throws {
        try encoded.write(to: location, options: .atomic)
    }

    /// Removes the record at `location`, if there is one.
    package static func remove(at location: URL) throws {
        guard unlink(location.path) == 0 || errno == ENOENT else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: location.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
        }
    }
}
