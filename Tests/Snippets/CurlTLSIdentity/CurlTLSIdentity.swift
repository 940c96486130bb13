import CourierCurl
import Foundation

func makePaymentsTransport() throws -> CurlTransport {
    var configuration = CurlTransport.Configuration()
    configuration.caBundlePath = "/etc/payments/ca.pem"
    configuration.clientCertificate = CurlTransport.ClientCertificate(
        certificatePath: "/etc/payments/client.pem",
        privateKeyPath: "/etc/payments/client.key",
        passphrase: ProcessInfo.processInfo.environment["PAYMENTS_KEY_PASSPHRASE"]
    )
    configuration.pinnedPublicKey = "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="
    configuration.minimumTLSVersion = .tls1_3
    return try CurlTransport(configuration: configuration)
}
