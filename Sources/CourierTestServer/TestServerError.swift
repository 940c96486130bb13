/// An error from starting a ``TestServer``.
///
/// A struct over a private code, so adding a case later does not break callers' `switch`es.
public struct TestServerError: Error, Equatable, CustomStringConvertible {
    private enum Code: Equatable {
        case invalidPort(Int)
        case noLocalAddress
    }

    private let code: Code

    /// The requested port is outside `0...65535`.
    public static func invalidPort(_ port: Int) -> TestServerError {
        TestServerError(code: .invalidPort(port))
    }

    /// The listener bound but reported no local address, so its port is unknown.
    public static let noLocalAddress = TestServerError(code: .noLocalAddress)

    public var description: String {
        switch code {
        case .invalidPort(let port): "TestServer: port \(port) is outside 0...65535"
        case .noLocalAddress: "TestServer: the listener has no local address"
        }
    }
}
