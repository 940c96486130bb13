import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Every libcurl this process has loaded, one `file: curl_version()` line each: `Benchmarks/run`
/// prints them beside the table, so a run says which library its Courier and URLSession clients
/// ran on (set with LD_LIBRARY_PATH or an rpath, not by what the build was compiled against).
/// Read from the loaded files themselves, since a build on libcurl-gnutls also loads the system's
/// libcurl.so.4 for FoundationNetworking, and each answers for itself.
func loadedLibcurls() -> [String] {
    // Read with stdio: /proc files report a size of 0, which Foundation's readers trust.
    guard let file = fopen("/proc/self/maps", "r") else { return ["no /proc/self/maps"] }
    defer { fclose(file) }
    var lines: [String] = []
    var buffer: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    while getline(&buffer, &capacity, file) > 0, let buffer { lines.append(String(cString: buffer)) }
    free(buffer)
    var paths: [String] = []
    for line in lines.map({ $0.trimmingCharacters(in: .newlines) }) {
        guard let slash = line.firstIndex(of: "/") else { continue }
        let path = String(line[slash...])
        let name = (path as NSString).lastPathComponent
        if name.hasPrefix("libcurl") && name.contains(".so") && !paths.contains(path) { paths.append(path) }
    }
    return paths.map { path in
        // Already loaded: RTLD_NOLOAD only hands back its handle.
        guard let handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD) else { return "\(path): not loaded" }
        defer { dlclose(handle) }
        guard let symbol = dlsym(handle, "curl_version") else { return "\(path): no curl_version" }
        let version = unsafeBitCast(symbol, to: (@convention(c) () -> UnsafePointer<CChar>).self)
        return "\(path): \(String(cString: version()))"
    }
}
