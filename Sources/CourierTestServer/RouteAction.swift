import NIOCore

/// What the connection should do with a request once a route has looked at it.
enum RouteAction: Sendable {
    /// Send the reply now.
    case reply(Reply)
    /// Send the reply after `delay`, unless the client disconnects first.
    case delayed(TimeAmount, Reply)
    /// Write these bytes past NIO's HTTP encoder, then close the connection.
    case raw(RawReply)
    /// Close the connection without writing a byte.
    case closeConnection
    /// Never answer: keep the connection open, reading and ignoring whatever comes, until the
    /// client leaves or the server shuts down.
    case neverAnswer
}
