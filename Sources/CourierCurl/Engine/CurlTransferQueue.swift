/// Transfers waiting for room to run, first in, first out. Curl thread only.
///
/// An array read from a moving head: taking the first is O(1), and the array is compacted
/// once most of it has been taken, so a queue that never quite empties does not grow forever.
/// Generic so that admission is tested with stand-ins for transfers.
struct CurlTransferQueue<Transfer> {
    private var items: [Transfer] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }
    var first: Transfer? { head < items.count ? items[head] : nil }

    /// The transfers still queued, first first.
    var transfers: ArraySlice<Transfer> { items[head...] }

    mutating func append(_ transfer: Transfer) {
        items.append(transfer)
    }

    mutating func popFirst() -> Transfer? {
        guard head < items.count else { return nil }
        let first = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return first
    }
}
