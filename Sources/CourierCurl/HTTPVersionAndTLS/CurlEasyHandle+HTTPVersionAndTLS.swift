extension CurlEasyHandle {
    /// Sets the HTTP version and the TLS options of `configuration` on a new handle. Only what
    /// is configured is set, so a handle of a default configuration asks libcurl for nothing
    /// more than the version and the TLS floor.
    ///
    /// A libcurl built without HTTP/2 refuses `CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE` here, which
    /// fails the request with a ``CurlError`` of kind ``CurlError/Kind/option`` naming the option,
    /// rather than sending HTTP/1.1 to a server that expects HTTP/2.
    static func applyHTTPVersionAndTLSIdentity(
        _ configuration: CurlTransport.Configuration, to easy: Curl.EasyPointer
    ) throws(CurlError) {
        // A libcurl without nghttp2 refuses every HTTP/2 value, CURL_HTTP_VERSION_2TLS too; left
        // unset there, `.automatic` is HTTP/1.1, which is all such a libcurl speaks.
        // A libcurl without HTTP/3 is not asked for it: the request is refused before it gets
        // here (HTTPVersionPreference.refusal), and the handle stays usable for nothing else.
        if configuration.httpVersion.needsHTTP3, !Curl.features.http3 {
            // Nothing to set.
        } else if configuration.httpVersion != .automatic || Curl.features.http2 {
            try Curl.set(easy, .httpVersion, configuration.httpVersion.curlValue)
        }
        try Curl.set(easy, .sslVersion, configuration.minimumTLSVersion.curlValue)
        if let path = configuration.caDirectoryPath {
            try Curl.set(easy, .caPath, path)
        }
        if let pinned = configuration.pinnedPublicKey {
            try Curl.set(easy, .pinnedPublicKey, pinned)
        }
        if let identity = configuration.clientCertificate {
            try Curl.set(easy, .sslCertificate, identity.certificatePath)
            if let key = identity.privateKeyPath {
                try Curl.set(easy, .sslKey, key)
            }
            // libcurl copies the passphrase; the configuration keeps its own copy, as it keeps
            // every other setting, for as long as the transport lives. With none, an empty one:
            // left unset, OpenSSL asks for an encrypted key's passphrase on the terminal, and a
            // library must never stop to prompt; empty, the key fails as with a wrong one.
            try Curl.set(easy, .keyPassword, identity.passphrase ?? "")
        }
    }
}
