import CourierParity
import Foundation

/// The behaviours both transports must share, as data: each entry is a request, what to
/// compare and any known difference. Grouped by concern in `ParityCatalogue+….swift`.
enum ParityCatalogue {
    static let cases: [ParityCase] =
        methods + statusCodes + responseBodies + requestBodies + queries + headers
        + redirects + encodings + cookiesAndAuthentication + failures + streaming + retries + caching
}
