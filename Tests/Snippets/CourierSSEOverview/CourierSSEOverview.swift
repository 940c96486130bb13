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
