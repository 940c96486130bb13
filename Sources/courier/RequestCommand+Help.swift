extension RequestCommand {
    /// `courier help request`: the exit codes and what each option does where curl's manual
    /// would not tell. Kept apart from the options so that the command reads as its flags.
    static let helpText = """
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
        (APIError), e.g. `courier: GET http://127.0.0.1:9/: transport failed: URLError -1004 …`; \
        a URL that cannot be sent (exit 1 or 3) is quoted as given: `courier: GET "ftp://host/": \
        invalid URL: …`. A password in the URL is written as xxxxx in every message \
        (http://alice:xxxxx@host/).

        Requests send `User-Agent: courier/<version>` unless -H sets one.

        -F sends a multipart/form-data body (RFC 7578) with curl's syntax: -F name=value, \
        -F name=@FILE[;type=MIME][;filename=NAME] for a file, -F 'name=<FILE' for a file's \
        bytes as a text field; repeatable, one part each, POST unless -X says otherwise. \
        Files are read while they are sent, whatever their size, and the body goes out with \
        its Content-Length. A part's type, unless ;type= gives one, is curl's guess from the \
        extension of the file name it is sent with (.txt, .html, .png, .jpg, .gif, .svg, \
        .pdf, .xml); a file's falls back to its path's extension, then \
        application/octet-stream; stdin (@-, sent as -) and a value with ;filename= go \
        untyped unless the name tells, and a <FILE field is typed by its file's extension, \
        except as text/plain, as curl does. Names and \
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

        -x, -U, --noproxy, --unix-socket, --resolve, --connect-to and --doh-url take curl's \
        syntax. Unlike curl, courier reads no proxy from the environment (http_proxy, \
        ALL_PROXY…), so -U and --noproxy need -x. A proxy's password is never printed. \
        --doh-url sends every host name to a DNS-over-HTTPS server (an https URL, verified \
        against --cacert/--capath even with -k, as curl does); a name it cannot answer fails \
        with 6.

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

        --cache DIR keeps responses in DIR and answers from them as a private HTTP cache \
        does (RFC 9111), on either transport: a fresh response is answered without asking \
        the server, a stale one is revalidated with its ETag or Last-Modified, and a 304 \
        freshens it. DIR is created when missing and may be shared by several runs at once; \
        it holds at most --cache-max-bytes. Heuristic freshness (a response with no max-age \
        or Expires) is off unless --cache-heuristics. %{response_source} says where the \
        answer came from: network, cache, or revalidated. A DIR that cannot be created or \
        written exits 23 before anything is sent.
        """
}
