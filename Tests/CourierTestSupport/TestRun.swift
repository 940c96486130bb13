#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the running test process is, for the few assertions whose meaning depends on it.
///
/// A test asserts the behaviour it tells apart, not how fast the machine is: a timeout test
/// holds its server far longer than any bound and asserts the error, a poll waits for a state
/// change. The limits here are for what only a hang reaches.
public enum TestRun {
    /// Whether ThreadSanitizer or AddressSanitizer instruments this process. They slow code 5 to
    /// 15 times, so a bound on elapsed time says nothing there: the sanitizer runs check memory
    /// and thread safety, and skip every assertion on a duration.
    ///
    /// Read from the process itself (their runtimes export `__tsan_init` and `__asan_init`), so a
    /// plain `swift test --sanitize=thread` knows it too, without a variable to remember.
    public static let isSanitized: Bool = {
        #if canImport(Glibc) || canImport(Darwin)
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, "__tsan_init") != nil || dlsym(process, "__asan_init") != nil
        #else
        return false
        #endif
    }()

    /// How long a wait for a state change may last before the test calls it a hang: far past
    /// what a sanitizer run on a starved 2-core machine takes (tens of seconds at worst), and
    /// still well inside the suite's own time.
    public static let hangLimit: Duration = .seconds(120)

    /// How long a test server holds a request that a client is meant to give up on: longer
    /// than ``hangLimit``, so a client that waited for the server instead of its own timeout
    /// fails the test by the outcome (an answer, or the hang limit), never by a race.
    public static let serverHold: Duration = .seconds(300)
}
