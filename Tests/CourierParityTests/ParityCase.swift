import Courier
import CourierParity
import Testing

/// One behaviour of the catalogue: a request, what to compare, and any known difference.
struct ParityCase: Sendable, CustomTestStringConvertible {
    /// How the request is sent.
    enum Action: Sendable {
        case send
        /// Starts the request and cancels its task after the delay.
        case cancel(after: Duration)
        /// Sends a request to the refused port first, on the same transport.
        case sendAfterRefusedConnection
        /// Sends through the transport's streaming entry point and reads the body chunk by
        /// chunk, waiting `readDelay` after each when set.
        case stream(readDelay: Duration?)
        /// Streams the request's body as a `RequestBody` of `chunkSize`-byte chunks, its length
        /// declared or not.
        case streamUpload(chunkSize: Int, declaresLength: Bool)
        /// Sends the request's body through the streaming entry point as one `RequestBody`: its
        /// bytes, or a file holding them.
        case upload(UploadSource)
        /// Streams the response and cancels the reading task once `afterBytes` arrived.
        case cancelStream(afterBytes: Int)
    }

    /// Where an ``Action/upload(_:)`` body comes from.
    enum UploadSource: Sendable {
        case data
        case file
    }

    var name: String
    var request: RequestSpec
    var compared: ComparedFields
    var action: Action
    /// The server whose record of the request is compared.
    var receivedBy: ServerRole
    var knownDifferences: [KnownDifference]
    /// Runs on a CurlTransport of its own, so that its transfers reuse each other's easy handle
    /// rather than one other cases have used.
    var needsOwnCurlTransport: Bool
    /// Runs on a transport of each kind of its own with this retry policy, rather than on the
    /// shared ones, which retry nothing.
    var retries: RetryPolicy?
    /// Runs on a transport of each kind of its own, each with a cache of its own in memory,
    /// which these requests go through first, in order; only the case's own request is compared.
    var primedBy: [RequestSpec]?

    init(
        _ name: String,
        _ request: RequestSpec,
        comparing compared: ComparedFields = .all,
        action: Action = .send,
        receivedBy: ServerRole = .main,
        known knownDifferences: [KnownDifference] = [],
        needsOwnCurlTransport: Bool = false,
        retries: RetryPolicy? = nil,
        cachePrimedBy primedBy: [RequestSpec]? = nil
    ) {
        self.name = name
        self.request = request
        self.compared = compared
        self.action = action
        self.receivedBy = receivedBy
        self.knownDifferences = knownDifferences
        self.needsOwnCurlTransport = needsOwnCurlTransport
        self.retries = retries
        self.primedBy = primedBy
    }

    /// The policies of a case that runs on transports of its own, or nil for the shared ones.
    var ownPolicies: (() -> Policies)? {
        guard retries != nil || primedBy != nil else { return nil }
        return { [retries, primedBy] in
            var policies = Policies()
            if let retries { policies.retries = retries }
            if primedBy != nil { policies.cache = HTTPCache() }
            return policies
        }
    }

    /// Cases that read `lastRequest` must not overlap, or one case would read another's request.
    var mustRunAlone: Bool { !compared.isDisjoint(with: .received) }

    var testDescription: String { name }
}
