#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Where an ``HTTPCache`` keeps responses: in memory or in a directory. Both answer the same
/// questions, so the cache's rules are written once over either.
///
/// A store is shared by every request the cache serves at once, and a directory may be shared
/// by several processes: each method is safe to call from any thread at any time, and a reader
/// never sees an entry half written. A store never fails a request: an entry it cannot read
/// (corrupt, truncated, of another format version, removed meanwhile) is a miss, and a response
/// it cannot keep (over its byte bound, a full disk) is simply not kept.
package protocol CacheStore: Sendable {
    /// Every variant stored for `key`, most recently stored first. Entries found unreadable are
    /// removed and left out.
    func entries(for key: CacheKey) -> [CacheEntry]

    /// The body of `entry`, to be read from the start; nil when it is gone or unreadable, which
    /// the cache treats as a miss. Reading marks the entry as recently used.
    func openBody(of entry: CacheEntry) -> (any CacheBodyReader)?

    /// Starts keeping `response` as the variant `variant` of `key`. The body is written through
    /// the writer as it arrives; only ``CacheBodyWriter/commit()`` makes the entry visible, and it
    /// then replaces the variant stored before it, atomically. Nil when the store will not keep it
    /// (a body longer than the store's bound, known from `expectedLength`).
    func beginStoring(_ response: StoredResponse, for key: CacheKey, variant: String, expectedLength: Int?) -> (any CacheBodyWriter)?

    /// Replaces the stored head of `entry` with `response` (a 304 freshened it), keeping its
    /// body. Does nothing when the entry is gone.
    func update(_ entry: CacheEntry, to response: StoredResponse)

    /// Removes every variant of `key`.
    func remove(_ key: CacheKey)

    /// Removes every entry.
    func removeAll()

    /// The bytes the store holds now, heads and bodies; never more than its bound once a write
    /// has committed.
    var storedBytes: Int { get }
}

/// The primary key of a stored response (RFC 9111 §2): the request's method and its URL without
/// the fragment.
package struct CacheKey: Hashable, Sendable {
    package var method: String
    package var url: String

    package init(method: String, url: String) {
        self.method = method
        self.url = url
    }
}

/// One stored response as a store lists it.
package struct CacheEntry: Sendable {
    /// The store's own name for the entry; opaque to the cache.
    package var id: String
    /// The variant's secondary key (see ``CacheStore/beginStoring(_:for:variant:expectedLength:)``).
    package var variant: String
    /// The head and what the cache needs to compute its age.
    package var response: StoredResponse
    /// The length of the stored body in bytes.
    package var bodyLength: Int

    package init(id: String, variant: String, response: StoredResponse, bodyLength: Int) {
        self.id = id
        self.variant = variant
        self.response = response
        self.bodyLength = bodyLength
    }
}

/// The head of a stored response, with the times its age is computed from (RFC 9111 §4.2.3)
/// and the request fields its `Vary` names (§4.1).
package struct StoredResponse: Sendable, Equatable, Codable {
    package var statusCode: Int
    /// The response's fields, in the order they arrived.
    package var headerFields: [StoredField]
    /// The URL that answered.
    package var url: String
    package var httpVersionMajor: Int
    package var httpVersionMinor: Int
    /// The values the request that was answered had for each field the response's `Vary` names,
    /// by lowercased name; nil for a field the request did not have.
    package var varyingRequestFields: [String: String?]
    /// When the request was sent (`request_time`).
    package var requestTime: Date
    /// When the response arrived (`response_time`).
    package var responseTime: Date

    package init(
        statusCode: Int, headerFields: [StoredField], url: String, httpVersionMajor: Int, httpVersionMinor: Int,
        varyingRequestFields: [String: String?], requestTime: Date, responseTime: Date
    ) {
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.url = url
        self.httpVersionMajor = httpVersionMajor
        self.httpVersionMinor = httpVersionMinor
        self.varyingRequestFields = varyingRequestFields
        self.requestTime = requestTime
        self.responseTime = responseTime
    }
}

/// One header field of a stored response.
package struct StoredField: Sendable, Equatable, Codable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Reads a stored body from its start, in chunks.
package protocol CacheBodyReader: Sendable {
    /// The next chunk of at most `maximumBytes`, or nil at the end. Throws when the stored body
    /// turns out shorter than its entry said (truncated on disk meanwhile).
    func read(upTo maximumBytes: Int) throws -> Data?
    /// Releases what the reader holds (its file descriptor); reading after is an error.
    func close()
}

/// Writes a body into a store while it arrives; nothing is visible until ``commit()``.
package protocol CacheBodyWriter: Sendable {
    /// Appends a chunk; false once the body has grown past what the store keeps, after which the
    /// writer has let go of what it wrote and ``commit()`` does nothing.
    @discardableResult
    func write(_ chunk: Data) -> Bool
    /// Makes the entry visible, replacing the variant stored before it, and evicts the least
    /// recently used entries until the store is within its bound again.
    func commit()
    /// Drops what was written: the body did not arrive whole.
    func abandon()
}
