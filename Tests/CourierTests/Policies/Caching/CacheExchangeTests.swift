#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import Foundation
import Testing

@testable import Courier

/// The cache's rules (RFC 9111) without a socket or a store: entries are values, the clock is a
/// number.
struct CacheExchangeTests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)
    private let url = URL(string: "http://127.0.0.1/resource")!

    // MARK: Freshness

    @Test func aResponseFreshByMaxAgeIsAnsweredWithItsAge() throws {
        let entry = entry(fields: ["Cache-Control": "max-age=60"])
        var exchange = exchange()
        guard case .answer(_, let age) = exchange.lookUp([entry], now: start + 59) else { Issue.record("expected an answer from the cache"); return }
        #expect(age == 59)
        var later = self.exchange()
        #expect(isRevalidateOrForward(later.lookUp([entry], now: start + 61)))
    }

    @Test func expiresCountsFromTheDateFieldNotFromArrival() {
        // The server's clock is 100 s behind: Expires − Date is the lifetime, not Expires − now.
        let date = start - 100
        let entry = entry(fields: ["Date": httpDate(date), "Expires": httpDate(date + 30)])
        var exchange = exchange()
        // The apparent age is 100 s, already past the 30 s lifetime.
        #expect(isRevalidateOrForward(exchange.lookUp([entry], now: start)))
        let onTime = self.entry(fields: ["Date": httpDate(start), "Expires": httpDate(start + 30)])
        var second = self.exchange()
        #expect(isAnswer(second.lookUp([onTime], now: start + 29)))
    }

    @Test func anInvalidExpiresOrMaxAgeIsStaleAtOnce() {
        for fields: [(String, String)] in [[("Expires", "0")], [("Cache-Control", "max-age=soon")], [("Cache-Control", "max-age=-5")]] {
            var exchange = exchange()
            #expect(!isAnswer(exchange.lookUp([entry(fields: fields + [("ETag", "\"a\"")])], now: start)))
        }
    }

    @Test func theAgeFieldAndTheResponseDelayAddToTheAge() {
        // Age 50 from upstream, 2 s in flight: 52 s old on arrival; max-age 60 leaves 8 s.
        let entry = entry(fields: ["Cache-Control": "max-age=60", "Age": "50"], requestTime: start - 2)
        var fresh = exchange()
        guard case .answer(_, let age) = fresh.lookUp([entry], now: start + 7) else { Issue.record("expected an answer"); return }
        #expect(age == 59)
        var stale = exchange()
        #expect(!isAnswer(stale.lookUp([entry], now: start + 9)))
    }

    @Test func sMaxAgeIsForSharedCachesOnly() {
        var exchange = exchange()
        #expect(!isAnswer(exchange.lookUp([entry(fields: ["Cache-Control": "s-maxage=600", "ETag": "\"a\""])], now: start + 1)))
    }

    @Test func heuristicFreshnessIsOffUnlessAskedFor() {
        let fields: KeyValuePairs<String, String> = ["Date": httpDate(start), "Last-Modified": httpDate(start - 1000)]
        var off = exchange()
        #expect(!isAnswer(off.lookUp([entry(fields: fields)], now: start + 50)))
        var on = exchange(heuristics: true)
        #expect(isAnswer(on.lookUp([entry(fields: fields)], now: start + 50)))
        var past = exchange(heuristics: true)
        #expect(!isAnswer(past.lookUp([entry(fields: fields)], now: start + 101)))
    }

    // MARK: Request directives

    @Test func requestDirectivesNarrowOrWidenWhatIsUsable() {
        let entry = entry(fields: ["Cache-Control": "max-age=60", "ETag": "\"a\""])
        var noCache = exchange(["Cache-Control": "no-cache"])
        #expect(isRevalidate(noCache.lookUp([entry], now: start + 1)))
        var pragma = exchange(["Pragma": "no-cache"])
        #expect(isRevalidate(pragma.lookUp([entry], now: start + 1)))
        var maxAge = exchange(["Cache-Control": "max-age=10"])
        #expect(isRevalidate(maxAge.lookUp([entry], now: start + 11)))
        var minFresh = exchange(["Cache-Control": "min-fresh=30"])
        #expect(isRevalidate(minFresh.lookUp([entry], now: start + 31)))
        var maxStale = exchange(["Cache-Control": "max-stale=100"])
        #expect(isAnswer(maxStale.lookUp([entry], now: start + 150)))
        var tooStale = exchange(["Cache-Control": "max-stale=100"])
        #expect(isRevalidate(tooStale.lookUp([entry], now: start + 161)))
        var anyStale = exchange(["Cache-Control": "max-stale"])
        #expect(isAnswer(anyStale.lookUp([entry], now: start + 100_000)))
        var noStore = exchange(["Cache-Control": "no-store"])
        #expect(isForward(noStore.lookUp([entry], now: start + 1)))
    }

    @Test func mustRevalidateRefusesStaleAnswersEvenWhenAskedFor() {
        let entry = entry(fields: ["Cache-Control": "max-age=10, must-revalidate", "ETag": "\"a\""])
        var exchange = exchange(["Cache-Control": "max-stale"])
        #expect(isRevalidate(exchange.lookUp([entry], now: start + 11)))
    }

    @Test func onlyIfCachedAnswers504WhenNothingUsableIsStored() {
        var miss = exchange(["Cache-Control": "only-if-cached"])
        #expect(isGatewayTimeout(miss.lookUp([], now: start)))
        var stale = exchange(["Cache-Control": "only-if-cached"])
        #expect(isGatewayTimeout(stale.lookUp([entry(fields: ["Cache-Control": "max-age=1", "ETag": "\"a\""])], now: start + 5)))
        var fresh = exchange(["Cache-Control": "only-if-cached"])
        #expect(isAnswer(fresh.lookUp([entry(fields: ["Cache-Control": "max-age=10"])], now: start + 5)))
    }

    @Test func urlSessionCachePoliciesMeanWhatTheyMeanThere() {
        let stale = entry(fields: ["Cache-Control": "max-age=1", "ETag": "\"a\""])
        var elseLoad = exchange(policy: .returnCacheDataElseLoad)
        #expect(isAnswer(elseLoad.lookUp([stale], now: start + 500)))
        var dontLoad = exchange(policy: .returnCacheDataDontLoad)
        #expect(isGatewayTimeout(dontLoad.lookUp([], now: start)))
        var reload = exchange(policy: .reloadIgnoringLocalCacheData)
        #expect(isForward(reload.lookUp([entry(fields: ["Cache-Control": "max-age=60"])], now: start)))
        var revalidating = exchange(policy: .reloadRevalidatingCacheData)
        #expect(isRevalidate(revalidating.lookUp([entry(fields: ["Cache-Control": "max-age=60", "ETag": "\"a\""])], now: start)))
    }

    @Test func aRequestWithPreconditionsOfItsOwnGoesToTheServer() {
        var exchange = exchange(["If-None-Match": "\"mine\""])
        #expect(isForward(exchange.lookUp([entry(fields: ["Cache-Control": "max-age=60"])], now: start)))
    }

    // MARK: Vary

    @Test func varyChoosesTheVariantWhoseRequestFieldsMatch() {
        let english = entry(fields: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], varying: ["accept-language": "en"], id: "en")
        let german = entry(fields: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], varying: ["accept-language": "de"], id: "de")
        let none = entry(fields: ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], varying: ["accept-language": nil], id: "none")
        var asksGerman = exchange(["Accept-Language": "de"])
        guard case .answer(let chosen, _) = asksGerman.lookUp([english, german, none], now: start) else { Issue.record("expected a hit"); return }
        #expect(chosen.id == "de")
        var asksNothing = exchange()
        guard case .answer(let bare, _) = asksNothing.lookUp([english, german, none], now: start) else { Issue.record("expected a hit"); return }
        #expect(bare.id == "none")
        var asksFrench = exchange(["Accept-Language": "fr"])
        #expect(isForward(asksFrench.lookUp([english, german], now: start)))
    }

    @Test func varyStarAndNoStoreAreNotStored() {
        let unstorable: [KeyValuePairs<String, String>] = [["Vary": "*", "Cache-Control": "max-age=60"], ["Cache-Control": "no-store, max-age=60"]]
        for fields in unstorable {
            var exchange = exchange()
            _ = exchange.lookUp([], now: start)
            #expect(isPass(exchange.received(response(200, fields))))
        }
    }

    @Test func theVariantKeyNamesTheRequestValuesVaryLists() {
        var exchange = exchange(["Accept-Encoding": "gzip", "Accept-Language": "en"])
        _ = exchange.lookUp([], now: start)
        guard case .store(let stored, let variant) = exchange.received(response(200, ["Cache-Control": "max-age=60", "Vary": "accept-language, Accept-Encoding"]))
        else { Issue.record("expected the response to be stored"); return }
        #expect(variant == "accept-encoding: gzip\naccept-language: en")
        #expect(stored.varyingRequestFields == ["accept-encoding": "gzip", "accept-language": "en"])
    }

    // MARK: Storing

    @Test func whatMayBeStored() {
        #expect(isStore(received(200, ["ETag": "\"a\""])))  // heuristically cacheable, revalidated each time
        #expect(isStore(received(404, ["Cache-Control": "max-age=60"])))
        #expect(isStore(received(500, ["Cache-Control": "max-age=60"])))  // explicit freshness makes any final status storable
        #expect(isPass(received(500, ["ETag": "\"a\""])))  // not heuristically cacheable, no explicit freshness
        #expect(isPass(received(200, [:])))  // never fresh and no validator: useless
        #expect(isPass(received(206, ["Cache-Control": "max-age=60"])))
        #expect(isStore(received(200, ["Cache-Control": "private, max-age=60"])))
        #expect(isPass(received(200, ["Cache-Control": "max-age=60"], request: ["Cache-Control": "no-store"])))
    }

    @Test func aResponseToARequestWithAuthorizationIsStoredOnlyWhenItSaysSo() {
        let authorized = ["Authorization": "Bearer x"]
        #expect(isPass(received(200, ["Cache-Control": "max-age=60"], request: authorized)))
        #expect(isStore(received(200, ["Cache-Control": "max-age=60, public"], request: authorized)))
        #expect(isStore(received(200, ["Cache-Control": "max-age=60, must-revalidate"], request: authorized)))
        #expect(isStore(received(200, ["Cache-Control": "s-maxage=60", "ETag": "\"a\""], request: authorized)))
    }

    @Test func connectionFieldsAndSetCookieAreNotStored() {
        guard case .store(let stored, _) = received(200, [
            "Cache-Control": "max-age=60", "Connection": "X-Hop", "X-Hop": "1", "Keep-Alive": "timeout=5",
            "Set-Cookie": "a=b", "X-Kept": "yes",
        ]) else { Issue.record("expected the response to be stored"); return }
        #expect(stored.headerFields.map(\.name) == ["Cache-Control", "X-Kept"])
    }

    // MARK: Revalidation

    @Test func aStaleResponseIsRevalidatedWithItsValidators() {
        let entry = entry(fields: ["Cache-Control": "max-age=1", "ETag": "\"v1\"", "Last-Modified": httpDate(start - 60)])
        var exchange = exchange()
        guard case .revalidate(_, let fields) = exchange.lookUp([entry], now: start + 5) else { Issue.record("expected a revalidation"); return }
        #expect(fields == [HeaderField(name: "If-None-Match", value: "\"v1\""), HeaderField(name: "If-Modified-Since", value: httpDate(start - 60))])
    }

    @Test func a304FreshensTheStoredHeadButNotItsFraming() {
        let entry = entry(fields: ["Cache-Control": "max-age=1", "ETag": "\"v1\"", "Content-Length": "5", "X-Version": "1"])
        var exchange = exchange()
        _ = exchange.lookUp([entry], now: start + 5)
        let notModified = response(304, ["Cache-Control": "max-age=100", "ETag": "\"v1\"", "Content-Length": "0", "X-Version": "2"], at: start + 6)
        guard case .freshen(_, let updated) = exchange.received(notModified) else { Issue.record("expected the entry freshened"); return }
        #expect(updated.fieldValue("Content-Length") == "5")
        #expect(updated.fieldValue("X-Version") == "2")
        #expect(updated.fieldValue("Cache-Control") == "max-age=100")
        #expect(updated.responseTime == start + 6)
        #expect(updated.statusCode == 200)
    }

    @Test func a304ForAnotherRepresentationIsNotMergedAndTheRequestIsSentAgain() {
        let entry = entry(fields: ["Cache-Control": "max-age=1", "ETag": "\"v1\""])
        var exchange = exchange()
        _ = exchange.lookUp([entry], now: start + 5)
        #expect(isResend(exchange.received(response(304, ["ETag": "\"v2\""]))))
        // Sent again without preconditions, the full answer is stored.
        #expect(isStore(exchange.received(response(200, ["Cache-Control": "max-age=60", "ETag": "\"v2\""]))))
    }

    @Test func weakEntityTagsMatchByTheWeakComparison() {
        let entry = entry(fields: ["Cache-Control": "max-age=1", "ETag": "W/\"v1\""])
        var weak = exchange()
        _ = weak.lookUp([entry], now: start + 5)
        #expect(isFreshen(weak.received(response(304, ["ETag": "W/\"v1\""]))))
        var strong = exchange()
        _ = strong.lookUp([entry], now: start + 5)
        #expect(isResend(strong.received(response(304, ["ETag": "\"v1\""]))))
    }

    // MARK: Invalidation

    @Test func anUnsafeMethodThatSucceedsInvalidatesTheTargetAndItsSameOriginLocations() {
        var exchange = exchange(method: "POST")
        #expect(isForward(exchange.lookUp([], now: start)))
        guard case .invalidate(let keys) = exchange.received(response(201, [
            "Location": "/created", "Content-Location": "http://elsewhere.example/other",
        ])) else { Issue.record("expected an invalidation"); return }
        #expect(keys.map(\.url) == ["http://127.0.0.1/resource", "http://127.0.0.1/created"])
        #expect(keys.allSatisfy { $0.method == "GET" })
        var failed = self.exchange(method: "DELETE")
        _ = failed.lookUp([], now: start)
        #expect(isPass(failed.received(response(500, [:]))))
    }

    // MARK: Fixtures

    private func exchange(
        _ fields: [String: String] = [:], method: String = "GET", policy: URLRequest.CachePolicy = .useProtocolCachePolicy, heuristics: Bool = false
    ) -> CacheExchange {
        var request = URLRequest(url: url, cachePolicy: policy)
        request.httpMethod = method
        for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
        return CacheExchange(request: CacheRequest(request), usesHeuristicFreshness: heuristics)
    }

    private func entry(
        fields: KeyValuePairs<String, String>, varying: [String: String?] = [:], requestTime: Date? = nil, id: String = "1"
    ) -> CacheEntry {
        entry(fields: fields.map { ($0.key, $0.value) }, varying: varying, requestTime: requestTime, id: id)
    }

    private func entry(fields: [(String, String)], varying: [String: String?] = [:], requestTime: Date? = nil, id: String = "1") -> CacheEntry {
        let response = StoredResponse(
            statusCode: 200, headerFields: fields.map { StoredField(name: $0.0, value: $0.1) }, url: url.absoluteString,
            httpVersionMajor: 1, httpVersionMinor: 1, varyingRequestFields: varying, requestTime: requestTime ?? start, responseTime: start
        )
        return CacheEntry(id: id, variant: "", response: response, bodyLength: 5)
    }

    private func response(_ status: Int, _ fields: KeyValuePairs<String, String>, at time: Date? = nil) -> CacheExchange.NetworkResponse {
        CacheExchange.NetworkResponse(
            statusCode: status, headerFields: fields.map { HeaderField(name: $0.key, value: $0.value) }, url: url, httpVersion: .http1_1,
            requestTime: time ?? start, responseTime: time ?? start
        )
    }

    private func received(_ status: Int, _ fields: KeyValuePairs<String, String>, request: [String: String] = [:]) -> CacheExchange.ResponseAction {
        var exchange = exchange(request)
        _ = exchange.lookUp([], now: start)
        return exchange.received(response(status, fields))
    }

    private func httpDate(_ date: Date) -> String {
        HTTPDateText.format(date)
    }

    private func isAnswer(_ action: CacheExchange.LookupAction) -> Bool { if case .answer = action { true } else { false } }
    private func isRevalidate(_ action: CacheExchange.LookupAction) -> Bool { if case .revalidate = action { true } else { false } }
    private func isForward(_ action: CacheExchange.LookupAction) -> Bool { if case .forward = action { true } else { false } }
    private func isGatewayTimeout(_ action: CacheExchange.LookupAction) -> Bool { if case .gatewayTimeout = action { true } else { false } }
    private func isRevalidateOrForward(_ action: CacheExchange.LookupAction) -> Bool { isRevalidate(action) || isForward(action) }
    private func isStore(_ action: CacheExchange.ResponseAction) -> Bool { if case .store = action { true } else { false } }
    private func isPass(_ action: CacheExchange.ResponseAction) -> Bool { if case .pass = action { true } else { false } }
    private func isFreshen(_ action: CacheExchange.ResponseAction) -> Bool { if case .freshen = action { true } else { false } }
    private func isResend(_ action: CacheExchange.ResponseAction) -> Bool { if case .resendUnconditionally = action { true } else { false } }
}
