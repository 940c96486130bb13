/// A failure inside ``CurlTransport`` that keeps libcurl's own code and message.
///
/// Failures on the wire reach callers as `URLError`, with the code URLSession gives for the same
/// event and this error attached under `NSUnderlyingErrorKey`. A `CurlError` is thrown directly
/// only for problems that are not about the exchange: a libcurl option that failed, a handle that
/// could not be created, a transport that was shut down (``Kind/shutDown``), or a client
/// certificate of the caller's that cannot be used (``Kind/clientCertificateUnusable``).
public struct CurlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New kinds may be added; switch with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case transfer, option, multi, handleCreation, globalInit, shutDown
            case responseTooLarge, headersTooLarge, clientCertificateUnusable
        }

        private let value: Value

        /// libcurl ended a transfer with a `CURLcode` other than `CURLE_OK`.
        public static let transfer = Kind(value: .transfer)
        /// `curl_easy_setopt` refused an option; ``CurlError/curlCode`` is its `CURLcode`.
        public static let option = Kind(value: .option)
        /// A `curl_multi_*` call failed; ``CurlError/curlCode`` is its `CURLMcode`.
        package static let multi = Kind(value: .multi)
        /// libcurl could not allocate a handle or a header list.
        package static let handleCreation = Kind(value: .handleCreation)
        /// `curl_global_init` failed; no transfer can run in this process.
        package static let globalInit = Kind(value: .globalInit)
        /// The transport was shut down before the request finished.
        public static let shutDown = Kind(value: .shutDown)
        /// The decoded body passed the ``/Courier/Policies/maximumResponseBytes`` of the transport's
        /// ``CurlTransport/Configuration/policies``. Package-wide: callers see
        /// `URLError(.dataLengthExceedsMaximum)`, as from `URLSessionTransport`.
        package static let responseTooLarge = Kind(value: .responseTooLarge)
        /// The response headers passed the ``/Courier/Policies/maximumHeaderBytes`` of the
        /// transport's ``CurlTransport/Configuration/policies``. Package-wide, as
        /// ``responseTooLarge``: callers see the `URLError` both engines give.
        package static let headersTooLarge = Kind(value: .headersTooLarge)
        /// The configured ``CurlTransport/ClientCertificate`` cannot be used: a file is missing
        /// or cannot be read (found when the transport is created, before anything is sent), or
        /// libcurl could not load it (`CURLE_SSL_CERTPROBLEM`, curl's exit code 58: a wrong
        /// passphrase, a key that does not match the certificate, a file that is not PEM). The
        /// message names the file and what is wrong with it; it is thrown as it is, not inside a
        /// `URLError`, because no server had a say in it.
        public static let clientCertificateUnusable = Kind(value: .clientCertificateUnusable)

        public var description: String { "\(value)" }
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The `CURLcode` (or `CURLMcode` for a failure of the multi handle) libcurl returned; 0 when libcurl
    /// reported nothing, e.g. for ``Kind/shutDown``.
    public let curlCode: Int
    /// libcurl's message for this failure (its error buffer when it filled one), or Courier's.
    public let message: String

    /// Creates an error; CourierCurl builds these, tests and decorators may too.
    package init(kind: Kind, curlCode: Int, message: String) {
        self.kind = kind
        self.curlCode = curlCode
        self.message = message
    }

    public var description: String {
        curlCode == 0 ? "\(kind): \(message)" : "\(kind) (libcurl code \(curlCode)): \(message)"
    }

    /// The error a request gets when its transport shuts down before it finishes; callers
    /// recognise it by its kind, ``Kind/shutDown``.
    package static let transportShutDown = CurlError(
        kind: .shutDown, curlCode: 0, message: "the CurlTransport was shut down before the request finished"
    )
}
