import CourierCurl
import Testing

@Suite struct TransportSelectionTests {
    @Test func unsetOrEmptyMeansTheDefault() throws {
        #expect(try TransportKind(environment: [:]) == .urlSession)
        #expect(try TransportKind(environment: ["COURIER_TRANSPORT": ""]) == TransportKind.default)
    }

    @Test(arguments: [("curl", TransportKind.curl), ("CURL", .curl), ("urlsession", .urlSession), ("URLSession", .urlSession)])
    func namesAreReadIgnoringCase(value: String, expected: TransportKind) throws {
        #expect(try TransportKind(environment: ["COURIER_TRANSPORT": value]) == expected)
    }

    @Test(arguments: ["libcurl", "url-session", " curl", "nio"])
    func unknownNamesAreAnErrorNamingTheAcceptedValues(value: String) {
        #expect {
            try TransportKind(environment: ["COURIER_TRANSPORT": value])
        } throws: { error in
            let message = String(describing: error)
            return message.contains("COURIER_TRANSPORT=\(value.debugDescription)")
                && message.contains("urlsession, curl")
        }
    }

    @Test(arguments: TransportKind.allCases)
    func eachNameMakesAWorkingNetworking(_ transport: TransportKind) throws {
        _ = try transport.makeTransport()
        #expect(try TransportKind(name: transport.rawValue) == transport)
    }
}
