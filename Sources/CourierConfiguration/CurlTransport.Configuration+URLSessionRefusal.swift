import Configuration
import Courier
import CourierCurl

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension CurlTransport.Configuration {
    /// The error for the first shared `http` or `tls` key that asks `URLSessionTransport` for
    /// what only `CurlTransport` does, naming the key; nil when none does. The `curl` keys
    /// are not looked at: they configure the curl engine alone and stay valid when it is not
    /// the one chosen.
    func refusalOnURLSession(_ reader: SettingReader) -> RequestError? {
        let keys: [(setting: CurlOnlySetting, key: ConfigKey)] = [
            (.http1_1Only, "http.version"),
            (.http2PriorKnowledge, "http.version"),
            (.http3, "http.version"),
            (.http3Only, "http.version"),
            (.clientCertificate, "tls.clientCertificate"),
            (.pinnedPublicKey, "tls.pinnedPublicKey"),
            (.minimumTLS1_3, "tls.minimumVersion"),
        ]
        let asked = curlOnlySettings
        guard let first = keys.first(where: { asked.contains($0.setting) }) else { return nil }
        return .unsupportedOption(
            "\(first.setting.action) (\(reader.fullKey(first.key)))", transport: "URLSessionTransport", supportedBy: "CurlTransport"
        )
    }
}
