#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The byte count every process sharing the directory adds to, kept in the lock file: a commit
/// then costs a few system calls, not a walk of the whole directory. The walk (``scan()``) runs
/// when the count is missing or damaged, and when eviction has to find the least recently used
/// entries, after which the count is the walk's.
///
/// The record is `CourierB`, the format version (big-endian UInt32), four zero bytes, the count
/// (big-endian UInt64) and the FNV-1a of the 24 bytes before it.
extension DiskCacheStore {
    private static let recordMagic = Array("CourierB".utf8)
    private static let recordBytes = 32

    /// The recorded count; nil when there is none or it does not read back whole. Called
    /// holding the lock.
    func recordedBytes() -> Int? {
        var record = [UInt8](repeating: 0, count: Self.recordBytes)
        let count = record.withUnsafeMutableBytes { pread(lockDescriptor, $0.baseAddress, Self.recordBytes, 0) }
        guard count == Self.recordBytes, Array(record[0..<8]) == Self.recordMagic,
            Self.integer(record[8..<12]) == UInt64(DiskCacheFormat.version),
            Self.integer(record[24..<32]) == DiskCacheFormat.fnv1a(record[0..<24])
        else { return nil }
        let bytes = Self.integer(record[16..<24])
        return bytes <= UInt64(Int.max) ? Int(bytes) : nil
    }

    /// Records `bytes` as the count. Called holding the lock.
    func record(_ bytes: Int) {
        var record = Self.recordMagic
        withUnsafeBytes(of: DiskCacheFormat.version.bigEndian) { record += $0 }
        record += [0, 0, 0, 0]
        withUnsafeBytes(of: UInt64(max(0, bytes)).bigEndian) { record += $0 }
        withUnsafeBytes(of: DiskCacheFormat.fnv1a(record).bigEndian) { record += $0 }
        _ = record.withUnsafeBytes { pwrite(lockDescriptor, $0.baseAddress, Self.recordBytes, 0) }
    }

    /// Adds `delta` to the count, evicting when that takes it over the bound. Called holding
    /// the lock, after the files changed.
    func account(_ delta: Int) {
        guard let recorded = recordedBytes() else {
            evict(toFit: maximumBytes)
            return
        }
        let total = max(0, recorded + delta)
        if total > maximumBytes {
            evict(toFit: maximumBytes)
        } else {
            record(total)
        }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}
