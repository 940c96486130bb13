#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ArgumentParser
import Courier
import CourierCurl
import Foundation

/// `courier request URL`: a curl-like client on either transport. The body goes to stdout (or
/// `-o FILE`) byte for byte; a failure is one line on stderr and a documented exit code.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send HTTP requests and write the response bodies to stdout.",
        discussion: """
            Exit codes, curl's for the same failure (curl(1), EXIT CODES):
              0   a response arrived (any status, unless --fail)
              1   unsupported protocol: a URL scheme other than http or https; also any \
            failure curl has no code for
              3   malformed URL
              4   an option the transport cannot honour: a proxy, Unix socket, DNS override, \
            HTTP version or TLS flag, or -T -, with --transport urlsession (nothing is sent)
              5   could not resolve the proxy's host
              6   could not resolve the host (a name under .invalid never reaches the network)
              7   could not connect (refused, unreachable)
              8   the reply is not HTTP
              18  the body ended before its Content-Length
              22  --fail and the status is 400 or above; nothing is written to stdout
              23  the body or the cookie jar could not be written: to stdout, silently when \
            its reader has gone (`| head`), with one line on stderr otherwise (a full disk); \
            to the -o file, with one line on stderr (it cannot be created, the disk is full)
              26  a -d/--json @file, a -F file or the cookie jar could not be read
              28  timed out (--timeout, or no data for the idle timeout)
              33  -C asked for a range and the server did not send it (see -C)
              35  the TLS handshake failed (no common version, not TLS, the server refused \
            the client certificate)
              42  the request was cancelled
              47  too many redirects (--max-redirects)
              52  the server closed the connection without a reply
              55  sending failed
              56  receiving failed (the connection was reset)
              58  the client certificate or its key cannot be used: a file that is missing \
            or cannot be read (before anything is sent), a wrong passphrase, a key that does not \
            match, a file that is not PEM
              60  the server's certificate is not trusted (or not the --pinnedpubkey one: 90)
              61  the body's Content-Encoding could not be decoded
              63  the body is over --max-filesize (or the response headers over the limit)
              64  usage error (curl has 2 for some): unknown option, missing URL, bad -H, -X, \
            -d with --json, -F with -d or --json, bad --transport or COURIER_TRANSPORT; one line on stderr, \
            `courier: <message>`
              65  a body that cannot be sent again had to be, for a redirect or a retry
              92  HTTP/2 stream error
              97  the proxy refused or failed the handshake (CONNECT, SOCKS)
            With --transport curl a failure libcurl reports exits with libcurl's own code, as \
            curl does (so others, such as 27 or 90, can occur). URLSession tells fewer \
            failures apart: with --transport urlsession a body cut short, a failed send and an \
            HTTP/2 stream error all exit 56, and any reply that is not HTTP exits 52.

            Failures print one line to stderr: the method, the URL and Courier's typed error \
            (APIError), e.g. `courier: GET http://127.0.0.1:9/: transport failed: URLError -1004 …`. \
            A password in the URL is written as xxxxx in every message (http://alice:xxxxx@host/).

            Requests send `User-Agent: courier/<version>` unless -H sets one.

            -F sends a multipart/form-data body (RFC 7578) with curl's syntax: -F name=value, \
            -F name=@FILE[;type=MIME][;filename=NAME] for a file, -F 'name=<FILE' for a file's \
            bytes as a text field; repeatable, one part each, POST unless -X says otherwise. \
            Files are read while they are sent, whatever their size, and the body goes out with \
            its Content-Length. A file's type is curl's guess from its extension (.txt, .html, \
            .png, .jpg, .gif, .svg, .pdf, .xml), application/octet-stream otherwise. Names and \
            file names are escaped as browsers and curl do (\" as %22, CR as %0D, LF as %0A). \
            Several files in one -F (name=@a,b), ;headers= and ;encoder= are refused (64). \
            Should a file contain the random boundary, the upload stops there and fails.

            -T FILE sends the file, read while it is sent, with its Content-Length, by PUT \
            unless -X says otherwise; a URL ending in / gets the file's name, as curl does. \
            -T - sends stdin chunked, each piece as soon as it is read (curl waits to fill its \
            buffer), and the response can arrive while stdin is still open: with -N, which \
            writes the body to stdout as it arrives rather than once it is complete, a process \
            can hold a conversation through the tool. Only the curl transport reads a response \
            while its body is still being sent, so -T - is refused (4) with --transport \
            urlsession. -T - and -N take one URL.

            -x, -U, --noproxy, --unix-socket, --resolve and --connect-to take curl's syntax. \
            Unlike curl, courier reads no proxy from the environment (http_proxy, ALL_PROXY…), \
            so -U and --noproxy need -x. A proxy's password is never printed.

            -i prints `<version> <code> <reason>`, the version the curl transport spoke \
            (`HTTP/1.1 200 OK`; `HTTP/2 200`, without a reason, as curl writes it) and HTTP/1.1 \
            on URLSession, which does not say; then each header as the transport reports it, \
            sorted by name, repeated fields joined with ", " as URLSession hands them over, then \
            a blank line and the body; lines end in CRLF as on the wire.

            With -o the body is written to the file as it arrives, and a progress bar is drawn \
            on stderr when stderr is a terminal (not with -s). What arrived before a failure \
            stays in the file, as with curl; -C resumes it (curl's exit 33 when the server does \
            not send the range asked for; see -C). A body written to a file has no size limit unless \
            --max-filesize gives one, as with curl: the limit exists to bound the memory of a \
            body held whole, for stdout.

            -w/--write-out FORMAT writes FORMAT to stdout after the body, as curl does, also \
            when the request fails (http_code 000) or --fail stops it. %{name} is a variable, \
            %% a percent sign, \\n \\r \\t a newline, return and tab; an unknown variable writes \
            nothing and a warning on stderr. Variables: \(WriteOut.variables.joined(separator: ", ")). \
            Times are seconds with six decimals, from the start of the exchange, each phase added \
            up over the redirects followed, as curl does; they are what the engine measured, \
            read from the response (or, when the request fails after it started, from the \
            error). With --transport urlsession only time_starttransfer and time_total are \
            measured; the other times, size_header, size_request, num_connects and the \
            addresses, which come from libcurl, are written as curl writes a value it has not \
            got (0, or empty for an address), and http_version is 0. size_download is the final \
            body as it came on the wire with curl (before decoding, as curl counts it) and as \
            decoded with urlsession. With -o the body streams, and its metrics are read once it \
            has ended.
            """
    )

    @Argument(help: ArgumentHelp("The http or https URL; several are sent one after another over the same connections, as curl does.", valueName: "url"))
    var urls: [String]

    @Option(name: .customShort("X"), help: ArgumentHelp("The method (default GET, or POST with -d/--json).", valueName: "method"))
    var method: String?

    @Option(name: .customShort("H"), help: ArgumentHelp("A request header, 'Name: value'; repeatable (values for one name are joined with \", \", Cookie's with \"; \"). 'Name;' sends an empty value; 'Name:' drops the Content-Type or Accept that -d or --json would add.", valueName: "header"))
    var headers: [String] = []

    @Option(name: .customShort("d"), help: ArgumentHelp("The body: text, or @FILE for a file's bytes (@- for stdin). Sets Content-Type: application/x-www-form-urlencoded unless -H sets one.", valueName: "data"))
    var data: String?

    @Option(help: ArgumentHelp("A JSON body (or @FILE); sets Content-Type and Accept to application/json.", valueName: "data"))
    var json: String?

    @Flag(name: [.customShort("i"), .long], help: "Write the status line and headers before the body.")
    var include = false

    @Option(name: .customShort("o"), help: ArgumentHelp("Write the body to FILE as it arrives, instead of stdout.", valueName: "file"))
    var output: String?

    @Flag(name: [.customShort("s"), .long], help: "Draw no progress bar for -o (errors are still reported, as curl -sS does).")
    var silent = false

    @Option(name: .long, help: ArgumentHelp("The most body bytes accepted (default 64 MiB, and none with -o); 0 for no limit.", valueName: "bytes"))
    var maxFilesize: Int?

    @Option(help: "curl or urlsession (default: COURIER_TRANSPORT, else urlsession).")
    var transport: TransportKind?

    @Option(help: "Give up after this many seconds in total.")
    var timeout: Double?

    @Option(help: "The most redirects followed; 0 prints the redirect itself.")
    var maxRedirects: Int?

    @Flag(help: "Exit 22 without writing the body when the status is 400 or above.")
    var fail = false

    @Option(name: [.customShort("c"), .long], help: ArgumentHelp("Read cookies from FILE if it exists, send and keep them on every hop, and write them all back to FILE afterwards (Netscape format, as curl's -b FILE -c FILE).", valueName: "file"))
    var cookieJar: String?

    @OptionGroup(title: "Proxies, Unix sockets and DNS overrides (curl transport only)")
    var route: RouteOptions

    @OptionGroup(title: "Retries")
    var retries: RetryOptions

    @Option(name: [.customShort("w"), .customLong("write-out")], help: ArgumentHelp("Write FORMAT to stdout after the body, with curl's %{variable} syntax (see below).", valueName: "format"))
    var writeOut: String?

    @OptionGroup(title: "HTTP version and TLS (curl's flags)")
    var httpVersionAndTLS: HTTPVersionAndTLSOptions

    @OptionGroup(title: "Resuming (curl's -C)")
    var continueAt: ContinueAtOptions

    @OptionGroup(title: "Uploads and streaming (curl's -T and -N)")
    var stream: StreamingOptions

    @OptionGroup(title: "Multipart forms (curl's -F)")
    var form: FormOptions

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("give the URL to request") }
        for url in urls {
            do {
                _ = try RequestURL.parse(url)
            } catch {
                // curl's codes for a URL it cannot send, not a usage error.
                Terminal.errorLine("\(error)")
                throw ExitCode(RequestURL.curlExitCode(rejecting: url))
            }
        }
        if output != nil, urls.count > 1 { throw ValidationError("-o writes one response: give one URL with it") }
        try continueAt.validate(output: output)
        if data != nil, json != nil { throw ValidationError("give -d or --json, not both") }
        try form.validate(data: data, json: json)
        try stream.validate(urlCount: urls.count, otherBodyGiven: data != nil || json != nil || !form.fields.isEmpty, output: output)
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be more than 0 seconds") }
        if let maxRedirects, maxRedirects < 0 { throw ValidationError("--max-redirects must be 0 or more") }
        if let maxFilesize, maxFilesize < 0 { throw ValidationError("--max-filesize must be 0 or more") }
        // Resolved here so a bad COURIER_TRANSPORT is a usage error (64), not a request failure.
        _ = try resolvedTransport()
        for header in headers { _ = try HeaderArgument(header) }
    }

    func run() async throws {
        let targets = try urls.map(RequestURL.parse).map(stream.target)
        let method = (method ?? stream.impliedMethod ?? (data != nil || json != nil || !form.fields.isEmpty ? "POST" : "GET"))
        let failure = { (error: any Error, target: URL) -> ExitCode in
            Terminal.errorLine(APIError(kind: Self.kind(of: error), method: method, url: target).description)
            return ExitCode(CurlExitCode.forFailure(error))
        }
        guard let first = targets.first else { throw ExitCode.validationFailure }
        let jar = try cookieJar.map { path in try CookieJarFile.load(path, method: method, url: first) }
        let upload = try form.upload(method: method, url: first) ?? stream.upload(method: method, url: first)
        if let output = output ?? stream.output {
            try await download(try makeRequest(method: method, url: first), to: output, jar: jar, upload: upload) { failure($0, first) }
            return
        }
        // One transport for every URL, so a later one reuses the connection an earlier one
        // opened, as curl does with several URLs.
        let exchange: HTTPExchange
        do {
            let transport = try resolvedTransport()
            let curl = try route.curlConfiguration(for: transport, over: httpVersionAndTLSConfiguration(for: transport))
            let made = try transport.makeTransport(policies: policies(cookies: jar?.store), curl: curl)
            exchange = upload.map { StreamingOptions.exchange(sending: $0, over: made.streaming, limit: maximumBodyBytes) } ?? made.exchange
        } catch {
            throw failure(error, first)
        }
        // As curl without --fail-early: every URL is tried, and the exit status is the last
        // failure's.
        var lastFailure: ExitCode?
        for target in targets {
            do {
                try await send(try makeRequest(method: method, url: target), over: exchange, jar: jar) { failure($0, target) }
            } catch let code as ExitCode {
                lastFailure = code
            }
        }
        if let lastFailure { throw lastFailure }
    }

    /// The request for `target`, with its body and headers; exits 26 when a body file cannot be
    /// read, as curl does.
    private func makeRequest(method: String, url target: URL) throws -> URLRequest {
        var request = URLRequest(url: target)
        request.httpMethod = method
        // As curl sends `curl/<version>`; -H replaces it.
        request.setValue(Self.userAgent, forHTTPHeaderField: "User-Agent")
        if let timeout { request.timeoutInterval = timeout }
        do {
            try applyBody(to: &request)
        } catch {
            // Not a transport error: the body file could not be read, so say that plainly.
            Terminal.errorLine("\(method) \(target.redactedString): cannot read the request body: \(Self.describe(fileError: error))")
            throw ExitCode(CurlExitCode.readError)
        }
        // Through allHTTPHeaderFields, not setValue: FoundationNetworking's setValue drops a
        // value holding CR or LF without a word, and the transport must see it to refuse it.
        request.allHTTPHeaderFields = HeaderArgument.fields(try headers.map(HeaderArgument.init), over: request.allHTTPHeaderFields ?? [:])
        return request
    }

    /// Sends one request and writes its head (with -i), body and -w values to stdout.
    private func send(
        _ request: URLRequest, over exchange: HTTPExchange, jar: CookieJarFile?, failure: (any Error) -> ExitCode
    ) async throws {
        let method = request.httpMethod ?? "GET"
        let target = request.url ?? URL(fileURLWithPath: "/")
        let body: Data
        let head: Courier.ResponseHead
        do {
            (body, head) = try await exchange(request)
        } catch {
            // curl writes its jar whatever the outcome: cookies from the hops before a failure
            // were set all the same.
            try jar?.save(method: method, url: target)
            write(WriteOut.Values(failure: error, url: target))
            throw failure(error)
        }
        try jar?.save(method: method, url: target)
        let values = WriteOut.Values(head: head, metrics: head.metrics, httpVersion: try spokenVersion(of: head))
        do {
            try check(head, method: method, url: target)
        } catch {
            write(values)
            throw error
        }
        var out = include ? IncludedHead(head).bytes : Data()
        out.append(body)
        Terminal.writeOut(out)
        write(values)
    }

    /// The version the engine spoke, for `%{http_version}`: FoundationNetworking does not say,
    /// and its head reads as HTTP/1.1 whatever it spoke, so nil on URLSession.
    private func spokenVersion(of head: Courier.ResponseHead) throws -> String? {
        try resolvedTransport() == .curl ? head.httpVersion.description : nil
    }

    private func write(_ values: WriteOut.Values) {
        guard let writeOut else { return }
        let (text, unknown) = WriteOut(format: writeOut).render(values)
        for name in unknown { Terminal.errorLine("unknown --write-out variable: '\(name)'") }
        Terminal.writeOut(Data(text.utf8))
    }

    /// `-o FILE`: the body is written to the file chunk by chunk as the transport's streaming
    /// API hands it over, so memory stays bounded whatever its size.
    private func download(
        _ request: URLRequest, to output: String, jar: CookieJarFile?, upload: UploadBody?, failure: (any Error) -> ExitCode
    ) async throws {
        let method = request.httpMethod ?? "GET"
        let target = request.url ?? URL(fileURLWithPath: "/")
        let meter = silent || !Terminal.stderrIsTerminal ? nil : ProgressMeter()
        var layers: [StreamingNetworkingLayer] = []
        if let meter { layers.append(StreamingLayers.reportingProgress { meter.show($0) }) }
        let streaming: StreamingNetworking
        do {
            let transport = try resolvedTransport()
            let curl = try route.curlConfiguration(for: transport, over: httpVersionAndTLSConfiguration(for: transport))
            streaming = layered(try transport.makeStreaming(policies: policies(cookies: jar?.store), curl: curl), layers)
        } catch {
            throw failure(error)
        }
        let body: ResponseBody
        let head: Courier.ResponseHead
        let started = ContinuousClock.now
        var values = WriteOut.Values()
        values.effectiveURL = target
        var streamed: (body: ResponseBody, head: Courier.ResponseHead)?
        defer {
            // A body's metrics are the whole exchange's once its transfer ended; until then (a
            // body cut short here) the head's stand, with the tool's own total.
            if let streamed, let metrics = streamed.body.metrics {
                values.hops = WriteOut.Values(head: streamed.head, metrics: metrics, httpVersion: nil).hops
            }
            values.total = ContinuousClock.now - started
            write(values)
        }
        let offset = continueAt.offset(resuming: output)
        do {
            (body, head) = try await streaming(continueAt.request(request, from: offset), upload)
        } catch {
            meter?.finish()
            try jar?.save(method: method, url: target)
            values = WriteOut.Values(failure: error, url: target)
            throw failure(error)
        }
        streamed = (body, head)
        values = WriteOut.Values(head: head, metrics: head.metrics, httpVersion: try spokenVersion(of: head))
        try jar?.save(method: method, url: target)
        do {
            if try continueAt.skipsBody(of: head, offset: offset, failing: fail, method: method, url: target) { meter?.finish(); return }
            try check(head, method: method, url: target)
        } catch {
            meter?.finish()
            throw error
        }
        let file: OutputFile
        do {
            file = try OutputFile(path: output, appending: (offset ?? 0) > 0)
        } catch {
            meter?.finish()
            Terminal.errorLine("\(method) \(target.redactedString): cannot create \(output): \(error.description)")
            throw ExitCode(Terminal.writeFailedStatus)
        }
        defer { file.close() }
        let limit = maximumBodyBytes
        var written = 0
        do {
            if include { try file.write(IncludedHead(head).bytes) }
            for try await chunk in body {
                written += chunk.count
                guard written <= limit else {
                    throw URLError(.dataLengthExceedsMaximum, userInfo: [
                        NSLocalizedDescriptionKey: "the body exceeds the limit of \(limit) bytes (--max-filesize)",
                        NSURLErrorFailingURLErrorKey: target,
                    ])
                }
                try file.write(chunk)
                values.receivedBodyBytes = written
            }
            meter?.finish()
        } catch let error as FileDescriptorOutput.Failure {
            meter?.finish()
            // As with the body on stdout: a reader that went away (`-o - | head`) chose to stop.
            if output == "-", error.isBrokenPipe { throw ExitCode(Terminal.writeFailedStatus) }
            Terminal.errorLine("\(method) \(target.redactedString): cannot write \(output): \(error.description)")
            throw ExitCode(Terminal.writeFailedStatus)
        } catch {
            meter?.finish()
            throw failure(error)
        }
    }

    /// Exits 22 for a status of 400 or above under `--fail`.
    private func check(_ head: Courier.ResponseHead, method: String, url target: URL) throws {
        guard fail, head.statusCode >= 400 else { return }
        let kind = APIError.kind(forStatusCode: head.statusCode) ?? .unexpectedStatus(statusCode: head.statusCode)
        Terminal.errorLine(APIError(kind: kind, method: method, url: target, head: head).description)
        throw ExitCode(CurlExitCode.httpError)
    }

    /// The tool's `User-Agent`, the same on both transports.
    static let userAgent = "courier/\(courierVersion)"

    /// `--max-filesize`, 0 meaning none; without it, none for `-o` and the policies' default
    /// for stdout, whose body is held whole in memory first.
    private var maximumBodyBytes: Int {
        guard let maxFilesize else { return (output ?? stream.output) == nil ? Policies().maximumResponseBytes : Int.max }
        return maxFilesize == 0 ? Int.max : maxFilesize
    }

    private func resolvedTransport() throws -> TransportKind {
        try transport ?? TransportKind.fromEnvironment()
    }

    /// The curl engine's settings from the HTTP version and TLS flags; throws
    /// `RequestError.unsupportedOption` for a flag URLSession cannot honour (these, or `-T -`), and warns on stderr
    /// that `-k` turns verification off.
    private func httpVersionAndTLSConfiguration(for transport: TransportKind) throws -> CurlTransport.Configuration {
        if let refusal = stream.refusal(for: transport) { throw refusal }
        let configuration = httpVersionAndTLS.curlConfiguration()
        if transport == .urlSession, let refusal = httpVersionAndTLS.refusalOnURLSession(configuration) {
            throw refusal
        }
        if httpVersionAndTLS.insecure { Terminal.errorLine(HTTPVersionAndTLSOptions.insecureWarning) }
        return configuration
    }

    private func policies(cookies: CookieStore?) -> Policies {
        var policies = Policies()
        if let timeout { policies.totalDeadline = timeout }
        if let maxRedirects { policies.redirects.maximumRedirects = maxRedirects }
        policies.cookies = cookies
        policies.maximumResponseBytes = maximumBodyBytes
        policies.retries = retries.policy
        return policies
    }

    private func applyBody(to request: inout URLRequest) throws {
        if let data {
            request.httpBody = try Self.bytes(of: data)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        } else if let json {
            request.httpBody = try Self.bytes(of: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
        }
    }

    /// The text itself, or with a leading `@` the named file's bytes (`@-`: stdin), as curl does.
    private static func bytes(of argument: String) throws -> Data {
        guard argument.hasPrefix("@") else { return Data(argument.utf8) }
        let path = String(argument.dropFirst())
        // readToEnd throws where readDataToEndOfFile traps (a closed stdin, a directory).
        if path == "-" { return try FileHandle.standardInput.readToEnd() ?? Data() }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Foundation on Linux describes many file errors only as "NSCocoaErrorDomain error 256";
    /// the POSIX error underneath says what went wrong.
    static func describe(fileError error: any Error) -> String {
        // Stored as a `POSIXError`, which `as? NSError` does not match on Linux.
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error {
            let posix = underlying as NSError
            if posix.domain == NSPOSIXErrorDomain, let code = Int32(exactly: posix.code) {
                return String(cString: strerror(code))
            }
        }
        return error.localizedDescription
    }

    /// The typed error a failure stands for, as `APIClient` would report it.
    private static func kind(of error: any Error) -> APIError.Kind {
        if let error = error as? RequestError { return .invalidRequest(error) }
        return .transport(error)
    }
}
