#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What a head file holds after its fixed header: the whole key and variant, so that a hash
/// collision in a file name is never taken for a hit, and the name of the body file.
struct DiskCacheHead: Codable, Equatable {
    var method: String
    var url: String
    var variant: String
    /// The body file's unique part, 32 hex digits.
    var body: String
    var bodyLength: Int
    /// When the variant was stored; `entries(for:)` lists the newest first.
    var storedAt: Date
    var response: StoredResponse
}

/// The names and the head file format of a ``DiskCacheStore``.
///
/// ```
/// <directory>/.lock                       held (flock) while anything is renamed or removed
/// <directory>/.tmp/<32 hex>.tmp           files being written, renamed into place whole
/// <directory>/<16 hex>/                   one per key: FNV-1a of method and URL
///              <16 hex>.head              one per variant: FNV-1a of the variant
///              <16 hex>.<32 hex>.body     its body, named by the head
/// ```
///
/// A head file is `CourierC`, the format version and the payload's length (big-endian UInt32
/// each), the payload's FNV-1a (big-endian UInt64), then the payload: the ``DiskCacheHead`` as
/// JSON. Anything else (another version, a short file, a checksum that differs) is a miss.
enum DiskCacheFormat {
    static let version: UInt32 = 1
    static let magic = Array("CourierC".utf8)
    static let headerBytes = 24
    /// Larger head files are not read: no response head the engines accept comes near it.
    static let maximumHeadFileBytes = 1 << 20

    static let lockFileName = ".lock"
    static let temporaryDirectoryName = ".tmp"

    static func keyDirectoryName(_ key: CacheKey) -> String {
        hex(fnv1a(Array(key.method.utf8) + [0] + Array(key.url.utf8)))
    }

    static func variantName(_ variant: String) -> String {
        hex(fnv1a(Array(variant.utf8)))
    }

    static func headFileName(variant: String) -> String {
        "\(variant).head"
    }

    static func bodyFileName(variant: String, body: String) -> String {
        "\(variant).\(body).body"
    }

    /// A fresh unique name for a body or a temporary file.
    static func uniqueName() -> String {
        hex(UInt64.random(in: .min ... .max)) + hex(UInt64.random(in: .min ... .max))
    }

    static func isHexName(_ name: Substring, length: Int) -> Bool {
        name.utf8.count == length && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// What a file in a key directory is, by its name; nil for a name the store never makes.
    enum FileKind: Equatable {
        case head(variant: String)
        case body(variant: String, body: String)
    }

    static func kind(ofFileNamed name: String) -> FileKind? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard let variant = parts.first, isHexName(variant, length: 16) else { return nil }
        if parts.count == 2, parts[1] == "head" { return .head(variant: String(variant)) }
        if parts.count == 3, parts[2] == "body", isHexName(parts[1], length: 32) {
            return .body(variant: String(variant), body: String(parts[1]))
        }
        return nil
    }

    static func encode(_ head: DiskCacheHead) -> Data? {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        guard let payload = try? encoder.encode(head), payload.count <= maximumHeadFileBytes - headerBytes else { return nil }
        var file = Data(magic)
        append(version, to: &file)
        append(UInt32(payload.count), to: &file)
        append(fnv1a(payload), to: &file)
        file.append(payload)
        return file
    }

    /// The head in `file`, or nil when the file is not a whole head of this version.
    static func decode(_ file: Data) -> DiskCacheHead? {
        let bytes = [UInt8](file)
        guard bytes.count >= headerBytes, Array(bytes[0..<8]) == magic,
            integer(bytes[8..<12]) == UInt64(version),
            integer(bytes[12..<16]) == UInt64(bytes.count - headerBytes)
        else { return nil }
        let payload = bytes[headerBytes...]
        guard integer(bytes[16..<24]) == fnv1a(payload) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let head = try? decoder.decode(DiskCacheHead.self, from: Data(payload)),
            isHexName(Substring(head.body), length: 32), head.bodyLength >= 0
        else { return nil }
        return head
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// FNV-1a, 64 bits: the same in every process and on every run, unlike `Hasher`.
    static func fnv1a<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
