import Courier
import Foundation

/// The connection group of each origin a transport sends to (see
/// ``CurlTransfer/connectionGroup(of:)``), written once per origin rather than per request: a
/// group's text is longer than a String keeps inline, so copying it out of the URL cost an
/// allocation on every request. Looked up by the origin's text where the URL holds it.
///
/// Bounded as ``CurlHeaderListCache`` is: once `capacity` origins are stored, the group of
/// another is written for its request alone.
final class CurlConnectionGroups: Sendable {
    private struct Origin: Hashable {
        /// ``CurlTransfer/origin(of:)``: looked up in the request URL's text, stored as a copy
        /// of its own, so the cache keeps no request's URL alive.
        var text: Substring
        var socketPath: String?
    }

    let capacity: Int
    private let groups = Locked<[Origin: String]>([:])

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The group `plan` belongs to: ``CurlTransfer/connectionGroup(of:)``.
    func group(of plan: CurlRequestPlan) -> String {
        let origin = Origin(text: CurlTransfer.origin(of: plan.wireURL), socketPath: plan.unixSocketPath)
        if let group = groups.withLock({ $0[origin] }) { return group }
        let group = CurlTransfer.connectionGroup(of: plan)
        return groups.withLock { groups in
            if let stored = groups[origin] { return stored }
            if groups.count < capacity {
                groups[Origin(text: Substring(String(origin.text)), socketPath: origin.socketPath)] = group
            }
            return group
        }
    }

    /// Origins stored, for tests.
    var count: Int { groups.withLock { $0.count } }
}
