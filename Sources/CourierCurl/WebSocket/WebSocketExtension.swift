/// One element of a `Sec-WebSocket-Extensions` value (RFC 6455 §9.1): an extension's name and
/// its parameters, as the server wrote them.
struct WebSocketExtension: Equatable, Sendable {
    struct Parameter: Equatable, Sendable {
        var name: String
        /// Nil for a parameter without `=`; a quoted value comes unquoted.
        var value: String?

        init(_ name: String, _ value: String? = nil) {
            self.name = name
            self.value = value
        }
    }

    var name: String
    var parameters: [Parameter]
    /// The element as written, for messages.
    var text: String

    /// The elements of a `Sec-WebSocket-Extensions` value, in order, or nil when it does not
    /// follow the grammar:
    ///
    /// ```
    /// extension-list  = 1#extension                     ; empty elements are skipped (RFC 9110 §5.6.1)
    /// extension       = token *( OWS ";" OWS extension-param )
    /// extension-param = token [ OWS "=" OWS ( token / quoted-string ) ]
    /// ```
    ///
    /// RFC 6455 writes no whitespace around `=`; it is read here, as Python's websockets reads it.
    static func list(from value: String) -> [WebSocketExtension]? {
        var parser = Parser(bytes: Array(value.utf8))
        return parser.list()
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0

        mutating func list() -> [WebSocketExtension]? {
            var elements: [WebSocketExtension] = []
            while true {
                skipWhitespace()
                guard let byte = peek() else { return elements }
                if byte == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard let element = element() else { return nil }
                elements.append(element)
                skipWhitespace()
                guard let next = peek() else { return elements }
                guard next == UInt8(ascii: ",") else { return nil }
                index += 1
            }
        }

        /// An extension and its parameters, up to the comma or the end after it.
        private mutating func element() -> WebSocketExtension? {
            let start = index
            guard let name = token() else { return nil }
            var parameters: [Parameter] = []
            var end = index
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: ";") else { break }
                index += 1
                skipWhitespace()
                guard let parameterName = token() else { return nil }
                var value: String?
                let afterName = index
                skipWhitespace()
                if peek() == UInt8(ascii: "=") {
                    index += 1
                    skipWhitespace()
                    guard let written = token() ?? quotedString() else { return nil }
                    value = written
                } else {
                    index = afterName
                }
                parameters.append(Parameter(parameterName, value))
                end = index
            }
            index = end
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            return WebSocketExtension(name: name, parameters: parameters, text: text)
        }

        private func peek() -> UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        private mutating func skipWhitespace() {
            while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                index += 1
            }
        }

        /// `token` of RFC 9110 §5.6.2, or nil (nothing read) when none starts here.
        private mutating func token() -> String? {
            let start = index
            while let byte = peek(), Self.isTokenByte(byte) {
                index += 1
            }
            guard index > start else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// `quoted-string` of RFC 9110 §5.6.4, unescaped, or nil (nothing read) when none is here.
        private mutating func quotedString() -> String? {
            guard peek() == UInt8(ascii: "\"") else { return nil }
            let start = index
            index += 1
            var content: [UInt8] = []
            while let byte = peek() {
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: content, as: UTF8.self) }
                var literal: UInt8? = byte
                if byte == UInt8(ascii: "\\") {
                    literal = peek()
                    index += 1
                }
                guard let literal, Self.isQuotable(literal) else { break }
                content.append(literal)
            }
            index = start
            return nil
        }

        /// What a quoted string may hold, as it is or after a backslash: tab, space, the visible
        /// ASCII characters and obs-text.
        private static func isQuotable(_ byte: UInt8) -> Bool {
            byte == 0x09 || (0x20...0x7E).contains(byte) || byte >= 0x80
        }

        private static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                true
            default:
                tokenSymbols.contains(byte)
            }
        }

        private static let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)
    }
}
