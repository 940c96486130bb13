/// Where a response came from: the network, or an ``HTTPCache``.
public enum ResponseSource: Sendable, Hashable, CustomStringConvertible {
    /// Sent and answered over the network, with no stored response involved.
    case network
    /// Answered from the cache without asking the server.
    case cache
    /// Answered from the cache after the server confirmed, with a 304, that the stored response
    /// is still current: the head is the stored one freshened by the 304, the body the stored
    /// one, and the metrics are the 304's exchange.
    case revalidated

    /// `network`, `cache`, `revalidated`: the spelling of log lines and trace attributes.
    public var description: String {
        switch self {
        case .network: "network"
        case .cache: "cache"
        case .revalidated: "revalidated"
        }
    }
}
