extension CurlEasyHandle {
    /// Sets where every request of the transport goes: the proxy, its credentials and
    /// exceptions, the DNS overrides and the DNS-over-HTTPS server; returns the string lists
    /// libcurl keeps pointers to.
    ///
    /// `.none` sets `CURLOPT_PROXY` to `""`, which also stops libcurl reading `http_proxy` and
    /// its siblings; `.environment` leaves it unset, the one case in which libcurl reads them.
    static func applyRoute(_ configuration: CurlTransport.Configuration, to easy: Curl.EasyPointer) throws(CurlError) -> [CurlHeaderList] {
        let proxy = configuration.proxy
        switch proxy.source {
        case .none:
            try Curl.set(easy, .proxy, "")
        case .environment:
            try Curl.set(easy, .proxy, pointer: nil)
        case .url(let url):
            try Curl.set(easy, .proxy, url)
            if let credentials = proxy.credentials {
                let literal = credentials.escapedForLibcurl()
                try Curl.set(easy, .proxyUsername, literal.user)
                try Curl.set(easy, .proxyPassword, literal.password)
            }
            // Set even when empty: an unset CURLOPT_NOPROXY makes libcurl read NO_PROXY.
            try Curl.set(easy, .noProxy, proxy.noProxy.joined(separator: ","))
        }
        var lists: [CurlHeaderList] = []
        if !configuration.resolve.isEmpty {
            let list = try CurlHeaderList(lines: configuration.resolve.map(\.description))
            try Curl.set(easy, .resolve, list: list.pointer)
            lists.append(list)
        }
        if !configuration.connectTo.isEmpty {
            let list = try CurlHeaderList(lines: configuration.connectTo.map(\.description))
            try Curl.set(easy, .connectTo, list: list.pointer)
            lists.append(list)
        }
        if let url = configuration.dohURL {
            try Curl.set(easy, .dohURL, url.absoluteString)
            // Set although they are libcurl's defaults: the DoH server decides every address,
            // so it is verified even when the transport's own verification is off.
            try Curl.set(easy, .dohSSLVerifyPeer, 1)
            try Curl.set(easy, .dohSSLVerifyHost, 2)
        }
        return lists
    }

    /// `CURLOPT_UNIX_SOCKET_PATH`, or back to TCP for `nil`.
    static func setUnixSocketPath(_ path: String?, on easy: Curl.EasyPointer) throws(CurlError) {
        if let path {
            try Curl.set(easy, .unixSocketPath, path)
        } else {
            try Curl.set(easy, .unixSocketPath, pointer: nil)
        }
    }
}

extension CurlTransport.ProxyCredentials {
    /// The credentials as libcurl must be given them to send them as they are: with every `%`
    /// written `%25` where libcurl decodes them (``CurlFeatures/decodesProxyCredentials``).
    func escapedForLibcurl(features: CurlFeatures = Curl.features) -> Self {
        guard features.decodesProxyCredentials else { return self }
        func escaped(_ text: String) -> String {
            text.split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%25")
        }
        return Self(user: escaped(user), password: escaped(password))
    }
}
