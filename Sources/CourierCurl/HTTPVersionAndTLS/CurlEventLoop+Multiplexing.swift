extension CurlEventLoop {
    /// HTTP/2 multiplexing on the multi handle: many transfers over one connection
    /// (`CURLPIPE_MULTIPLEX`, also libcurl's default since 7.62, set so that no build changes
    /// it), at most ``CurlTransport/Configuration/maximumConcurrentStreamsPerConnection`` at once.
    /// HTTP/1.1 only turns it off, so libcurl never waits to learn whether a connection can
    /// be shared.
    static func applyMultiplexing(_ configuration: CurlTransport.Configuration, to multi: Curl.MultiPointer) throws(CurlError) {
        let multiplexes = configuration.httpVersion != .http1_1
        try Curl.set(multi, .pipelining, multiplexes ? Curl.pipeMultiplex : Curl.pipeNothing)
        // libcurl takes values from 1 to 2^31 - 1; the ends keep a bad setting inside them.
        let streams = min(max(1, configuration.maximumConcurrentStreamsPerConnection), Int(Int32.max))
        try Curl.set(multi, .maxConcurrentStreams, streams)
    }
}
