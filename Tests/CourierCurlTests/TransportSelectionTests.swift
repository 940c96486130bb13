import CourierCurl
import Testing

@Suite struct TransportSelectionTests {
    @Test func unsetOrEmptyMeansTheDefault() throws {
        #expect(try Transport(environment: [:]) == .urlSession)
        #expect(try Transport(environment: ["COURIER_TRANSPORT": ""]) == Transport.default)
    }

    @Test(arguments: [("curl", Transport.curl), ("CURL", .curl), ("urlsession", .urlSession), ("URLSession", .urlSession)])
    func namesAreReadIgnoringCase(value: String, expected: Transport) throws {
        #expect(try Transport(environment: ["COURIER_TRANSPORT": value]) == expected)
    }

    @Test(arguments: ["libcurl", "url-session", " curl", "nio"])
    func unknownNamesAreAnErrorNamingTheAcceptedValues(value: String) {
        #expect {
            try Transport(environment: ["COURIER_TRANSPORT": value])
        } throws: { error in
            let message = String(describing: error)
            return message.contains("COURIER_TRANSPORT=\(value.debugDescription)")
                && message.contains("urlsession, curl")
        }
    }

    @Test(arguments: Transport.allCases)
    func eachNameMakesAWorkingNetworking(_ transport: Transport) throws {
        _ = try transport.makeTransport()
        #expect(try Transport(name: transport.rawValue) == transport)
    }
}
