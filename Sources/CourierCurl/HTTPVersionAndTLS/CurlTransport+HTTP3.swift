import Courier

extension CurlTransport.HTTPVersionPreference {
    /// Why a request with this preference cannot be sent on the libcurl of `features`: HTTP/3
    /// asked of a libcurl built without it. Refused before anything is sent, as curl's `--http3`
    /// is, rather than sent over an older version the caller did not choose.
    func refusal(features: CurlFeatures = Curl.features, libcurlVersion: String = Curl.version) -> RequestError? {
        guard needsHTTP3, !features.http3 else { return nil }
        return .unsupportedOption(
            "speak HTTP/3 (httpVersion \(self))",
            transport: "CurlTransport (libcurl \(libcurlVersion), built without HTTP/3)",
            supportedBy: "CurlTransport on a libcurl built with HTTP/3"
        )
    }
}
