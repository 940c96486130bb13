/// First in, first out, as a value: an array read from a moving head, so taking the first
/// element is O(1) and no element is moved until most of the array has been taken. A queue that
/// never quite empties then does not grow forever, and a taken element is let go at once.
package struct FIFOQueue<Element> {
    /// Nil where an element was taken and the array not yet compacted.
    private var elements: [Element?] = []
    private var head = 0

    package init() {}

    package var isEmpty: Bool { head == elements.count }
    package var count: Int { elements.count - head }
    package var first: Element? { head < elements.count ? elements[head] : nil }

    /// The elements still queued, first first.
    package var queued: some Sequence<Element> { elements[head...].lazy.compactMap { $0 } }

    package mutating func append(_ element: Element) {
        elements.append(element)
    }

    package mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let first = elements[head]
        elements[head] = nil
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= elements.count {
            // What is moved is at most what was taken since the last compaction: O(1) a take.
            elements.removeFirst(head)
            head = 0
        }
        return first
    }

    package mutating func removeAll() {
        elements = []
        head = 0
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
