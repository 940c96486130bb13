extension CurlTransport.Configuration {
    /// A setting that only ``CurlTransport`` honours: asked of `URLSessionTransport` (through a
    /// shared configuration key or a `courier request` flag), it is refused with
    /// `RequestError.unsupportedOption` before anything is sent, never silently dropped.
    package enum CurlOnlySetting: Sendable, Equatable {
        case http1_1Only, http2PriorKnowledge, http3, http3Only, altSvcCache, caBundle, caDirectory, clientCertificate, pinnedPublicKey
        case minimumTLS1_3, noPeerVerification

        /// What the engine would be asked to do, as `RequestError.unsupportedOption` words it
        /// ("URLSessionTransport cannot <this>").
        package var action: String {
            switch self {
            case .http1_1Only: "limit itself to HTTP/1.1"
            case .http2PriorKnowledge: "speak HTTP/2 with prior knowledge (h2c)"
            case .http3: "speak HTTP/3"
            case .http3Only: "speak HTTP/3 only"
            case .altSvcCache: "keep an Alt-Svc cache"
            case .caBundle: "trust a CA bundle of the caller's"
            case .caDirectory: "trust a CA directory"
            case .clientCertificate: "present a client certificate"
            case .pinnedPublicKey: "pin the server's public key"
            case .minimumTLS1_3: "require TLS 1.3"
            case .noPeerVerification: "skip verifying the server's certificate"
            }
        }
    }

    /// The settings of this configuration, in the order above, that differ from the defaults
    /// and that only ``CurlTransport`` honours.
    package var curlOnlySettings: [CurlOnlySetting] {
        var settings: [CurlOnlySetting] = []
        if httpVersion == .http1_1 { settings.append(.http1_1Only) }
        if httpVersion == .http2PriorKnowledge { settings.append(.http2PriorKnowledge) }
        if httpVersion == .http3 { settings.append(.http3) }
        if httpVersion == .http3Only { settings.append(.http3Only) }
        if !altSvcCache.isOff { settings.append(.altSvcCache) }
        if caBundlePath != nil { settings.append(.caBundle) }
        if caDirectoryPath != nil { settings.append(.caDirectory) }
        if clientCertificate != nil { settings.append(.clientCertificate) }
        if pinnedPublicKey != nil { settings.append(.pinnedPublicKey) }
        if minimumTLSVersion != .tls1_2 { settings.append(.minimumTLS1_3) }
        if !verifiesPeer { settings.append(.noPeerVerification) }
        return settings
    }
}
