import Foundation

/// A DNS-over-HTTPS responder on 127.0.0.1 for the DoH tests (RFC 8484): a Python 3 script
/// (`http.server` + `ssl`, standard library only, written from ``script``) behind the test CA's
/// certificate for 127.0.0.1, as ``HTTPSTestServer`` is.
///
/// `/dns-query` takes a query by POST (`application/dns-message`) or GET (`?dns=`, base64url)
/// and answers an A query for a name it was given with that name's address, an AAAA query for
/// one with no record, and any query for another name with NXDOMAIN. `/failing-dns-query`
/// answers every query with a 500. Each question it answers is appended to a log, so a test can
/// tell that a name went through it (``answeredQueries``). Like ``HTTPSTestServer``, it exits
/// when its stdin closes.
package final class DoHTestServer: Sendable {
    private let process: ScriptedServerProcess
    private let logURL: URL
    package var port: Int { process.port }

    /// `https://127.0.0.1:<port>/dns-query`.
    package var url: URL { URL(string: "https://127.0.0.1:\(port)/dns-query")! }

    /// A URL on this server whose every answer is a 500.
    package var failingURL: URL { URL(string: "https://127.0.0.1:\(port)/failing-dns-query")! }

    private init(process: ScriptedServerProcess, logURL: URL) {
        self.process = process
        self.logURL = logURL
    }

    /// The questions answered so far, in order, each as `TYPE name RCODE`: `A service.test
    /// NOERROR`, `AAAA other.test NXDOMAIN`.
    package var answeredQueries: [String] {
        let text = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Starts the responder with the test CA's certificate for 127.0.0.1 from `files`, answering
    /// `names` (lower-case, no trailing dot) with their IPv4 addresses, and waits
    /// (`TestRun.hangLimit` at most) for its port.
    package static func start(names: [String: String], files: TLSTestFiles) async throws -> DoHTestServer {
        let python = try TLSTestFiles.tool("python3")
        let (certificate, key) = files.paths(of: .caSigned)
        let logURL = files.directory.appendingPathComponent("doh_server.\(UUID().uuidString).log")
        let answers = names.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let process = try await ScriptedServerProcess.start(
            "DoH test server", name: "doh_server", script: script, interpreter: python.path,
            arguments: [certificate, key, logURL.path] + answers, directory: files.directory
        )
        return DoHTestServer(process: process, logURL: logURL)
    }

    /// Terminates the process and waits for it to exit.
    package func stop() {
        process.stop()
    }

    /// The responder, run as `python3 -u doh_server.py CERT KEY LOG [NAME=ADDRESS…]`; prints its
    /// port, then serves.
    static let script = #"""
    import base64, http.server, os, socket, ssl, struct, sys, threading, urllib.parse

    certificate, key, log_path = sys.argv[1], sys.argv[2], sys.argv[3]
    names = dict(entry.split("=", 1) for entry in sys.argv[4:])
    log_lock = threading.Lock()
    TYPES = {1: "A", 28: "AAAA"}

    def parse_question(message):
        if len(message) < 12:
            return None
        (query_id, flags, question_count) = struct.unpack("!HHH", message[:6])
        if question_count != 1:
            return None
        labels, offset = [], 12
        while True:
            if offset >= len(message):
                return None
            length = message[offset]
            offset += 1
            if length == 0:
                break
            if length > 63 or offset + length > len(message):
                return None
            labels.append(message[offset:offset + length].decode("ascii", "replace"))
            offset += length
        if offset + 4 > len(message):
            return None
        (question_type, question_class) = struct.unpack("!HH", message[offset:offset + 4])
        return query_id, flags, ".".join(labels).lower().rstrip("."), question_type, message[12:offset + 4]

    def answer(message):
        parsed = parse_question(message)
        if parsed is None:
            return None
        query_id, flags, name, question_type, question = parsed
        address = names.get(name)
        records = b""
        count = 0
        if address is None:
            rcode = 3
        else:
            rcode = 0
            if question_type == 1:
                # The name as a pointer to the question's (offset 12), type A, class IN, TTL 60.
                records = struct.pack("!HHHIH", 0xC00C, 1, 1, 60, 4) + socket.inet_aton(address)
                count = 1
        # QR, the query's opcode and RD, RA, and the rcode.
        response_flags = 0x8000 | (flags & 0x7900) | 0x0080 | rcode
        header = struct.pack("!HHHHHH", query_id, response_flags, 1, count, 0, 0)
        with log_lock:
            with open(log_path, "a") as log:
                log.write("%s %s %s\n" % (TYPES.get(question_type, str(question_type)), name, "NXDOMAIN" if rcode else "NOERROR"))
        return header + question + records

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def reply(self, status, body=b"", content_type=None):
            self.send_response(status)
            if content_type:
                self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def respond(self, path, message):
            if path == "/failing-dns-query":
                self.reply(500, b"failing on purpose", "text/plain")
                return
            if path != "/dns-query" or message is None:
                self.reply(404)
                return
            body = answer(message)
            if body is None:
                self.reply(400, b"not a DNS query", "text/plain")
            else:
                self.reply(200, body, "application/dns-message")

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            encoded = urllib.parse.parse_qs(url.query).get("dns", [None])[0]
            message = None
            if encoded is not None:
                try:
                    message = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
                except ValueError:
                    message = None
            self.respond(url.path, message)

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            is_dns = self.headers.get("Content-Type", "").split(";")[0].strip() == "application/dns-message"
            self.respond(url.path, body if is_dns else None)

        def log_message(self, format, *args):
            pass

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    """# + "\n" + HTTPSTestServer.servingOverTLS
}

/// Runs `body` against a fresh DoH responder answering `names`, with fresh certificates (the
/// test CA's is ``TLSTestFiles/caBundlePath``); stops it and removes the certificates
/// afterwards whatever happens.
package func withDoHServer<T>(
    names: [String: String],
    _ body: (DoHTestServer, TLSTestFiles) async throws -> T
) async throws -> T {
    try await withTLSTestServer(start: { try await DoHTestServer.start(names: names, files: $0) }, stop: { $0.stop() }, body)
}
