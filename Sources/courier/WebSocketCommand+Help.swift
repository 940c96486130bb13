extension WebSocketCommand {
    /// `courier help ws`: what goes in and out, how it ends, and the exit codes. Kept apart from
    /// the options so that the command reads as its flags.
    static let helpText = """
        Each line of stdin is sent as a text message, without its line end (LF, or CRLF), as \
        soon as it is read; a last line without a line end is sent at the end of input. With \
        --binary, stdin is sent as binary messages instead, each the piece one read returned \
        (at most 64 KiB): pieces follow how the bytes arrived, not any framing of your own. \
        Each message from the server is written to stdout as it arrives: a text message and \
        a newline, a binary message as its bytes.

        At the end of stdin the client closes with 1000 (normal closure) and waits for the \
        server's close, up to --close-timeout (5 seconds by default), writing the messages \
        that arrive meanwhile as long as stdout keeps up (past 16 messages or 1 MiB \
        waiting, the rest is dropped). The command also ends when the server closes first, \
        whatever is left on stdin.

        The handshake is a GET over HTTP/1.1 with User-Agent: courier/<version> unless -H \
        sets one; a redirect in answer to it is not followed, as browsers do not follow \
        one. Only the curl transport opens WebSockets on Linux: with --transport urlsession \
        the command exits 4 with nothing sent, naming CurlTransport.

        Exit codes, curl's for the same failure (curl(1), EXIT CODES), as `courier request` \
        gives them:
          0   the WebSocket closed normally: the server closed with 1000, 1001 or no code, \
        or answered the client's close
          1   unsupported protocol: a URL scheme other than ws, wss, http or https; also \
        any failure curl has no code for
          3   malformed URL
          4   the transport cannot do what is asked: open a WebSocket, or a proxy, Unix \
        socket, DNS override, TLS flag, --connect-timeout, --close-timeout or --compressed, \
        with --transport urlsession (nothing is sent)
          5   could not resolve the proxy's host
          6   could not resolve the host
          7   could not connect (refused, unreachable)
          22  the server answered the handshake with a status other than 101 Switching \
        Protocols, as curl exits for a refused upgrade; the line names the status as \
        `courier request --fail` does
          23  stdout could not be written: silently when its reader has gone (`| head`), with \
        one line on stderr otherwise; the client closes with 1001 (going away) first
          26  stdin could not be read, or a line of it is not UTF-8, which a text message \
        must be (--binary sends bytes); the client closes with 1000 first
          28  timed out: -m/--max-time, --connect-timeout, or the server's answer to the \
        close did not come within --close-timeout
          35  the TLS handshake failed
          52  the server broke the WebSocket protocol: an answer to the handshake that is \
        not a WebSocket's, a redirect (never followed), a masked frame, a reserved opcode, \
        text that is not UTF-8
          56  the connection ended without a close frame
          58  the client certificate or its key cannot be used
          60  the server's certificate is not trusted (or not the --pinnedpubkey one: 90)
          63  a message was larger than --max-message-size (the client closed with 1009)
          64  usage error: unknown option, missing URL, bad -H, bad --transport or \
        COURIER_TRANSPORT; one line on stderr, `courier: <message>`
          76  the server closed the WebSocket with another code, such as 1008 (policy \
        violation) or one of its own (3000–4999): one line on stderr, e.g. `courier: the \
        server closed the WebSocket with 1008 (policy violation): no guests (GET \
        http://host/chat)`. Not curl's: its ws:// transfers have no such status. 76 is \
        sysexits' EX_PROTOCOL, as 64 is its EX_USAGE, and a code libcurl has not returned \
        since 7.82
          97  the proxy refused or failed the handshake (CONNECT, SOCKS)
        With --transport curl a failure libcurl reports exits with libcurl's own code, as \
        curl does.

        Failures print one line to stderr, as `courier request` prints them: the method, the \
        handshake's URL in its http or https form, and Courier's typed error; a URL that \
        cannot be opened (exit 1 or 3) is quoted as given.

        -x, -U, --noproxy, --unix-socket, --resolve, --connect-to, --doh-url and the TLS \
        flags take curl's syntax and mean what they mean for `courier request`. Through an \
        HTTP proxy the WebSocket always goes in a CONNECT tunnel, for ws:// too.
        """
}
