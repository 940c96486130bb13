import Courier
import CourierSSE
import Foundation

struct Tick: Decodable, Sendable {
    let index: Int
    let text: String
}

/// Opens the stream at `path` and decodes each `tick` event's JSON data, until the server ends it.
func ticks(at path: String, from client: APIClient) async throws -> [Tick] {
    var ticks: [Tick] = []
    let events = try await client.events(Request<ResponseBody>(path))
    for try await event in events where event.type == "tick" {
        ticks.append(try JSONDecoder().decode(Tick.self, from: Data(event.data.utf8)))
    }
    return ticks
}

/// Follows the stream at `path` as `EventSource` does: when it ends, sends the request again with
/// `Last-Event-ID`, until the server answers 204, three connections in a row bring no event, or
/// an hour has passed.
func resumedEvents(at path: String, from client: APIClient) async throws -> [ServerSentEvent] {
    var received: [ServerSentEvent] = []
    for try await event in client.events(Request<ResponseBody>(path), reconnecting: .standard, deadline: 3600) {
        received.append(event)
    }
    return received
}
