import Courier

extension ExchangeMetrics {
    /// The metrics of one transfer from what libcurl measured of it, with the decoded body
    /// bytes the transfer counted itself (libcurl counts the body ahead of its decoders).
    ///
    /// libcurl reports 0 for a phase the transfer never reached (no connect on a reused
    /// connection, no TLS handshake over plain HTTP, no first byte before a failure), and at
    /// least 1 µs for one it reached; 0 becomes nil here, so a nil phase is one that did not
    /// happen in this exchange rather than one that took no time. A reused connection looked
    /// no name up: libcurl 8 reports 0 for it, 7.x the moment it picked the connection, which
    /// is dropped so that every version answers alike.
    init(_ info: Curl.TransferInfo, decodedBodyBytes: Int?, features: CurlFeatures = Curl.features) {
        self.init()
        queued = Self.duration(info.queued)
        nameLookup = Self.duration(info.nameLookup)
        connect = Self.duration(info.connect)
        secureConnect = Self.duration(info.appConnect)
        requestSent = Self.duration(info.preTransfer)
        firstByte = Self.duration(info.startTransfer)
        total = Self.duration(info.total)
        // libcurl counts the connections a transfer opened; none, once it got as far as sending,
        // means it went over one kept from an earlier exchange. A transfer that failed before
        // that opened none either, and whether it would have reused one is unknown.
        if let opened = info.newConnections {
            if opened > 0 {
                connectionReused = false
            } else if requestSent != nil {
                connectionReused = true
                nameLookup = nil
            }
        }
        remoteAddress = Self.address(info.remoteIP, info.remotePort)
        localAddress = Self.address(info.localIP, info.localPort)
        if let size = info.requestSize {
            requestBytes = features.requestSizeCountsBody ? size : size + Int(info.uploaded ?? 0)
        }
        responseHeaderBytes = info.headerSize
        responseBodyBytes = info.downloaded.map { Int($0) }
        self.decodedBodyBytes = decodedBodyBytes
    }

    /// What libcurl has measured when a streamed body's head is complete: the phases up to the
    /// first byte, the addresses and the request. How long the exchange takes and the bytes of
    /// the body are known only at its end (``init(_:decodedBodyBytes:)``).
    init(headOf info: Curl.TransferInfo) {
        self.init(info, decodedBodyBytes: nil)
        total = nil
        responseBodyBytes = nil
    }

    private static func duration(_ microseconds: Int64?) -> Duration? {
        guard let microseconds, microseconds > 0 else { return nil }
        return .microseconds(microseconds)
    }

    /// `ip:port`, with an IPv6 address in brackets as in a URL.
    ///
    /// Written byte by byte into the new string's storage: two of these a request went
    /// through string interpolation, which formats the port through its description and grows
    /// the string piece by piece.
    static func address(_ ip: String?, _ port: Int?) -> String? {
        guard var ip else { return nil }
        let port = port.flatMap { $0 > 0 ? $0 : nil }
        var digits = 0
        if let port {
            var rest = port
            repeat { digits += 1; rest /= 10 } while rest > 0
        }
        return ip.withUTF8 { ip in
            // Byte-wise: Foundation's contains(_:) bridges to NSString, two allocations an address.
            let bracketed = ip.contains(UInt8(ascii: ":"))
            let count = ip.count + (bracketed ? 2 : 0) + (port == nil ? 0 : 1 + digits)
            return String(unsafeUninitializedCapacity: count) { buffer in
                var index = 0
                if bracketed { buffer[index] = UInt8(ascii: "["); index += 1 }
                _ = UnsafeMutableBufferPointer(rebasing: buffer[index...]).initialize(from: ip)
                index += ip.count
                if bracketed { buffer[index] = UInt8(ascii: "]"); index += 1 }
                if var rest = port {
                    buffer[index] = UInt8(ascii: ":")
                    index += 1 + digits
                    var digit = index
                    repeat {
                        digit -= 1
                        buffer[digit] = UInt8(ascii: "0") + UInt8(rest % 10)
                        rest /= 10
                    } while rest > 0
                }
                return index
            }
        }
    }
}
