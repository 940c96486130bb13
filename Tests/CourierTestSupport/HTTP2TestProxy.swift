import Foundation

/// nginx on 127.0.0.1 speaking HTTP/2 in front of an HTTP/1.1 server, for the HTTP/2 tests: the
/// upstream's routes over h2 with TLS (ALPN, HTTP/1.1 for clients that do not offer h2; the
/// test CA's certificate for 127.0.0.1) and over h2c with prior knowledge.
///
/// nginx is Debian's (`scripts/setup` installs `nginx-light`); when it is missing the test fails
/// with a ``HTTPSTestServerError`` saying so. It runs as one process (`master_process off`) with
/// a config and temporary files of its own, under a shell that ends it once the test process
/// is gone, so a crashed test process leaves no server behind.
///
/// It also serves files of its own over plain HTTP/1.1 (``plainPort``), from
/// ``staticDirectory``: under `/static/` with `etag on` and `expires 1h`, and under
/// `/static-revalidated/` with `etag on` and `Cache-Control: no-cache`, for tests of a cache
/// against a real server's validators.
///
/// Bodies pass through unbuffered both ways, so streaming and back-pressure reach the upstream.
/// Trailers do not: nginx 1.22 passes no upstream trailers on, and was seen sending none of its
/// own (`add_trailer`) over HTTP/2 either.
package final class HTTP2TestProxy: Sendable {
    /// The port of the TLS listener (h2 by ALPN, or HTTP/1.1).
    package let tlsPort: Int
    /// The port of the h2c listener (HTTP/2 with prior knowledge only).
    package let cleartextPort: Int
    /// The port of the plain HTTP/1.1 listener for static files.
    package let plainPort: Int
    private let process: SpawnedProcess
    private let directory: URL

    /// `https://127.0.0.1:<tlsPort><pathAndQuery>`.
    package func tlsURL(_ pathAndQuery: String) -> URL {
        URL(string: "https://127.0.0.1:\(tlsPort)\(pathAndQuery)")!
    }

    /// `http://127.0.0.1:<cleartextPort><pathAndQuery>`, for prior knowledge.
    package func cleartextURL(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(cleartextPort)\(pathAndQuery)")!
    }

    /// `http://127.0.0.1:<plainPort><pathAndQuery>`, nginx's own static files.
    package func plainURL(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(plainPort)\(pathAndQuery)")!
    }

    /// Where the files nginx serves under `/static/` and `/static-revalidated/` are.
    package var staticDirectory: URL {
        directory.appendingPathComponent("static")
    }

    private init(tlsPort: Int, cleartextPort: Int, plainPort: Int, process: SpawnedProcess, directory: URL) {
        self.tlsPort = tlsPort
        self.cleartextPort = cleartextPort
        self.plainPort = plainPort
        self.process = process
        self.directory = directory
    }

    /// Starts nginx in front of `127.0.0.1:<upstreamPort>` with the caSigned certificate of
    /// `files`, and waits (10 s at most) until both listeners accept connections.
    package static func start(upstreamPort: Int, files: TLSTestFiles) async throws -> HTTP2TestProxy {
        let nginx = try nginxPath()
        // nginx cannot be given port 0; a port the system just handed out is free, and the
        // rare one taken in between fails the start, which is tried again with new ports.
        var lastError: (any Error)?
        for _ in 0..<3 {
            let ports = try (freePort(), freePort(), freePort())
            do {
                return try await start(nginx: nginx, upstreamPort: upstreamPort, ports: ports, files: files)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? HTTPSTestServerError("nginx did not start")
    }

    private static func start(
        nginx: URL, upstreamPort: Int, ports: (tls: Int, cleartext: Int, plain: Int), files: TLSTestFiles
    ) async throws -> HTTP2TestProxy {
        let directory = files.directory.appendingPathComponent("nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("static"), withIntermediateDirectories: true)
        let (certificate, key) = files.paths(of: .caSigned)
        let config = configuration(directory: directory.path, upstreamPort: upstreamPort, ports: ports, certificate: certificate, key: key)
        try Data(config.utf8).write(to: directory.appendingPathComponent("nginx.conf"))

        // The shell writes nginx's pid for stop() and ends nginx itself once the test process
        // is gone. SIGKILL, since processes started from a test inherit a signal mask that
        // blocks SIGTERM, and nginx keeps nothing that needs a clean exit here.
        let process = try SpawnedProcess(
            executable: "/bin/sh",
            arguments: [
                "-c",
                """
                "$0" -p "$1" -e "$1/error.log" -c "$1/nginx.conf" </dev/null & pid=$!
                echo $pid > "$1/nginx.child"
                while kill -0 "$2" 2>/dev/null && kill -0 $pid 2>/dev/null; do sleep 0.2; done
                kill -KILL $pid 2>/dev/null
                """,
                nginx.path, directory.path, String(getpid()),
            ]
        )
        let proxy = HTTP2TestProxy(
            tlsPort: ports.tls, cleartextPort: ports.cleartext, plainPort: ports.plain, process: process, directory: directory
        )

        // Waits for nginx to listen, not for a speed: a loaded machine has taken more than 10 s.
        let deadline = ContinuousClock.now + TestRun.hangLimit
        while ContinuousClock.now < deadline {
            if accepts(ports.tls), accepts(ports.cleartext), accepts(ports.plain) { return proxy }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        proxy.stop()
        let log = (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
        throw HTTPSTestServerError("nginx did not listen on 127.0.0.1:\(ports.tls), :\(ports.cleartext) and :\(ports.plain) within \(TestRun.hangLimit); error.log:\n\(log)")
    }

    /// Ends nginx and waits for its shell, which follows within 0.2 s.
    package func stop() {
        let written = try? String(contentsOf: directory.appendingPathComponent("nginx.child"), encoding: .utf8)
        if let pid = written.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }), pid > 0 {
            kill(pid, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// The access log, one line per request: `<connection serial> <protocol> <request line>`,
    /// once it has at least `count` lines or ``TestRun/hangLimit`` has passed: nginx writes a
    /// request's line after its response has gone, so a client can have its answer before the
    /// line is there, and a loaded machine can take seconds to write it.
    package func accessLog(atLeast count: Int = 1) async -> [String] {
        let deadline = ContinuousClock.now + TestRun.hangLimit
        while true {
            let text = (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map(String.init)
            guard lines.count < count, ContinuousClock.now < deadline else { return lines }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func configuration(
        directory: String, upstreamPort: Int, ports: (tls: Int, cleartext: Int, plain: Int), certificate: String, key: String
    ) -> String {
        """
        worker_processes 1;
        master_process off;
        daemon off;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log warn;
        events { worker_connections 1024; }
        http {
            log_format connections '$connection $server_protocol "$request"';
            access_log \(directory)/access.log connections;
            client_body_temp_path \(directory)/body;
            proxy_temp_path \(directory)/proxy;
            fastcgi_temp_path \(directory)/fastcgi;
            uwsgi_temp_path \(directory)/uwsgi;
            scgi_temp_path \(directory)/scgi;
            client_max_body_size 0;
            upstream courier_test_server {
                server 127.0.0.1:\(upstreamPort);
                keepalive 16;
            }
            server {
                listen 127.0.0.1:\(ports.tls) ssl http2;
                listen 127.0.0.1:\(ports.cleartext) http2;
                ssl_certificate \(certificate);
                ssl_certificate_key \(key);
                location / {
                    proxy_pass http://courier_test_server;
                    proxy_http_version 1.1;
                    proxy_set_header Connection "";
                    proxy_set_header Host $http_host;
                    proxy_buffering off;
                    proxy_request_buffering off;
                    proxy_redirect off;
                    # An upstream that never answers stays silent for the client's own timeout
                    # to end, not nginx's 60 s one, which a loaded machine could reach first.
                    proxy_read_timeout 600s;
                    proxy_send_timeout 600s;
                }
            }
            server {
                listen 127.0.0.1:\(ports.plain);
                location /static/ {
                    alias \(directory)/static/;
                    etag on;
                    expires 1h;
                }
                location /static-revalidated/ {
                    alias \(directory)/static/;
                    etag on;
                    add_header Cache-Control no-cache;
                }
            }
        }
        """
    }

    private static func nginxPath() throws -> URL {
        if let found = try? TLSTestFiles.tool("nginx") { return found }
        // Debian installs it in /usr/sbin, which an unprivileged user's PATH often lacks.
        let sbin = URL(fileURLWithPath: "/usr/sbin/nginx")
        guard FileManager.default.isExecutableFile(atPath: sbin.path) else {
            throw HTTPSTestServerError("nginx was not found on PATH or in /usr/sbin; the HTTP/2 tests need it (scripts/setup installs nginx-light)")
        }
        return sbin
    }

    /// A port on 127.0.0.1 that the system reports free.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPSTestServerError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw HTTPSTestServerError("bind() failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw HTTPSTestServerError("getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts a TCP connection on 127.0.0.1:`port`.
    private static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// Runs `body` against nginx in front of `127.0.0.1:<upstreamPort>` with fresh certificates;
/// stops nginx and removes the files afterwards whatever happens.
package func withHTTP2Proxy<T>(
    upstreamPort: Int,
    _ body: (HTTP2TestProxy, TLSTestFiles) async throws -> T
) async throws -> T {
    let files = try await offThePool { try TLSTestFiles.make() }
    defer { files.remove() }
    let proxy = try await HTTP2TestProxy.start(upstreamPort: upstreamPort, files: files)
    do {
        let result = try await body(proxy, files)
        try? await offThePool { proxy.stop() }
        return result
    } catch {
        try? await offThePool { proxy.stop() }
        throw error
    }
}
