import Courier
import CourierObservabilityTestSupport
import Foundation
import Testing

/// The redaction every observability layer shares, on URLs and on messages that contain one.
@Suite struct ObservedRedactionTests {
    @Test(arguments: [
        ("http://h/p?token=abc&page=2", "http://h/p?token=xxxxx&page=2"),
        ("http://h/p?Access-Token=abc", "http://h/p?Access-Token=xxxxx"),
        ("http://h/p?sig=abc&se=2030", "http://h/p?sig=xxxxx&se=2030"),
        ("http://h/p?client_secret=abc&code=def&state=s", "http://h/p?client_secret=xxxxx&code=xxxxx&state=s"),
        ("http://h/p?%74oken=abc", "http://h/p?%74oken=xxxxx"),
        ("http://h/p?flag&key", "http://h/p?flag&key"),
        ("http://u:pw@h/p?q=1#access_token=abc", "http://u:xxxxx@h/p?q=1"),
        ("http://h/p", "http://h/p"),
    ])
    func urlsLoseTheirSecrets(_ given: String, _ expected: String) throws {
        #expect(try #require(URL(string: given)).redactedString == expected)
    }

    @Test func aMessageHasEachOfItsURLsRedacted() {
        let message = "timed out (GET http://a:pw@h/x?token=t1) then (http://h/y?api_key=k2&n=1)"
        #expect(redactingURLs(in: message) == "timed out (GET http://a:xxxxx@h/x?token=xxxxx) then (http://h/y?api_key=xxxxx&n=1)")
    }
}
