import Courier
import Foundation

/// The connection group of each origin a transport sends to (see
/// ``CurlTransfer/connectionGroup(of:)``), written once per origin rather than per request: a
/// group's text is longer than a String keeps inline, so copying it out of the URL cost an
/// allocation on every request. Looked up by the origin's text where the URL holds it, and
/// bounded as ``BoundedCache`` is.
final class CurlConnectionGroups: Sendable {
    private struct Origin: Hashable {
        /// ``CurlTransfer/origin(of:)``: looked up in the request URL's text, stored as a copy
        /// of its own, so the cache keeps no request's URL alive.
        var text: Substring
        var socketPath: String?
    }

    private let groups: BoundedCache<Origin, String>

    init(capacity: Int) {
        groups = BoundedCache(capacity: capacity)
    }

    /// The group `plan` belongs to: ``CurlTransfer/connectionGroup(of:)``.
    func group(of plan: CurlRequestPlan) -> String {
        let origin = Origin(text: CurlTransfer.origin(of: plan.wireURL), socketPath: plan.unixSocketPath)
        return groups.value(for: origin, storedAs: { Origin(text: Substring(String($0.text)), socketPath: $0.socketPath) }) {
            CurlTransfer.connectionGroup(of: plan)
        }
    }

    /// Origins stored, for tests.
    var count: Int { groups.count }
}
