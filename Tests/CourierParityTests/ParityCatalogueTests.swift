import Testing

/// Every catalogue case through both transports. Cases that compare what the server received
/// run one at a time, since they read the server's single `lastRequest`; the rest overlap.
@Suite(.parityServers, .serialized) struct ReceivedRequestParityTests {
    @Test(arguments: ParityCatalogue.cases.filter(\.mustRunAlone))
    func transportsAgree(_ parityCase: ParityCase) async throws {
        try await expectParity(parityCase)
    }
}

@Suite(.parityServers) struct ResponseParityTests {
    @Test(arguments: ParityCatalogue.cases.filter { !$0.mustRunAlone })
    func transportsAgree(_ parityCase: ParityCase) async throws {
        try await expectParity(parityCase)
    }
}

@Suite struct ParityCatalogueShapeTests {
    @Test func theCatalogueHasAtLeastSixtyCases() {
        #expect(ParityCatalogue.cases.count >= 60)
    }

    @Test func caseNamesAreUnique() {
        let names = ParityCatalogue.cases.map(\.name)
        #expect(Set(names).count == names.count)
    }

    @Test func everyKnownDifferenceHasAReason() {
        for parityCase in ParityCatalogue.cases {
            for known in parityCase.knownDifferences {
                #expect(!known.reason.isEmpty, "\(parityCase.name): \(known.field)")
                #expect(parityCase.compared.contains(known.field.group), "\(parityCase.name) does not compare \(known.field)")
            }
        }
    }
}

private func expectParity(_ parityCase: ParityCase, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let servers = try currentParityServers()
    let curl = try ParityTransports.curl.get()
    let run = try await ParityRunner.run(parityCase, on: servers, sharedCurl: curl)
    for problem in ParityRunner.problems(in: run, for: parityCase) {
        Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
}
