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
        discussion: helpText
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

    @OptionGroup(title: "Caching (RFC 9111)")
    var caching: CacheOptions

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("give the URL to request") }
        for url in urls {
            do {
                _ = try RequestURL.parse(url)
            } catch {
                // curl's codes for a URL it cannot send, not a usage error.
                Terminal.errorLine(RequestURL.refusal(of: url, method: sentMethod))
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
        let targets = try urls.map { try RequestURL.parse($0) }.map(stream.target)
        let method = sentMethod
        let failure = { (error: any Error, target: URL) -> ExitCode in
            Terminal.errorLine(APIError(kind: Self.kind(of: error), method: method, url: target).description)
            return ExitCode(CurlExitCode.forFailure(error))
        }
        guard let first = targets.first else { throw ExitCode.validationFailure }
        let jar = try cookieJar.map { path in try CookieJarFile.load(path, method: method, url: first) }
        let cache = try caching.httpCache(method: method, url: first)
        let upload = try form.upload(method: method, url: first) ?? stream.upload(method: method, url: first)
        if let output = output ?? stream.output {
            try await download(try makeRequest(method: method, url: first), to: output, jar: jar, cache: cache, upload: upload) { failure($0, first) }
            return
        }
        // One transport for every URL, so a later one reuses the connection an earlier one
        // opened, as curl does with several URLs.
        let exchange: HTTPExchange
        do {
            let transport = try resolvedTransport()
            let curl = try route.curlConfiguration(for: transport, over: httpVersionAndTLSConfiguration(for: transport))
            let made = try transport.makeTransport(policies: policies(cookies: jar?.store, cache: cache), curl: curl)
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
        _ request: URLRequest, to output: String, jar: CookieJarFile?, cache: HTTPCache?, upload: RequestBody?,
        failure: (any Error) -> ExitCode
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
            streaming = layered(try transport.makeStreaming(policies: policies(cookies: jar?.store, cache: cache), curl: curl), layers)
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

    /// The method the requests go by: -X, else PUT for -T, POST for another body, GET.
    private var sentMethod: String {
        method ?? stream.impliedMethod ?? (data != nil || json != nil || !form.fields.isEmpty ? "POST" : "GET")
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
        if httpVersionAndTLS.tls.insecure { Terminal.errorLine(TLSOptions.insecureWarning) }
        return configuration
    }

    private func policies(cookies: CookieStore?, cache: HTTPCache?) -> Policies {
        var policies = Policies()
        if let timeout { policies.totalDeadline = timeout }
        if let maxRedirects { policies.redirects.maximumRedirects = maxRedirects }
        policies.cookies = cookies
        policies.cache = cache
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
    static func kind(of error: any Error) -> APIError.Kind {
        if let error = error as? RequestError { return .invalidRequest(error) }
        return .transport(error)
    }
}
