import Foundation

// How a handle shares libcurl's per-handle Alt-Svc cache with the transport's other handles
// through one file (see CurlAltSvcFile for the rules).
extension CurlEasyHandle {
    /// Turns libcurl's Alt-Svc cache on for every version it may move a request to, and reads
    /// the file into it. The generation is taken before the file is read, so a write that
    /// lands in between makes this handle stale rather than wrongly current.
    func readAltSvcFile() throws(CurlError) {
        guard let file = altSvcFile else { return }
        altSvcGeneration = file.generation
        try Curl.set(pointer, .altSvcControl, Curl.altSvcAnyVersion)
        try Curl.set(pointer, .altSvc, file.path)
    }

    /// Whether the handle may be pooled for another transfer: it learned nothing the file
    /// lacks, and nobody wrote the file since it read it.
    var altSvcIsCurrent: Bool {
        guard let file = altSvcFile else { return true }
        return !holdsNewAltSvc && altSvcGeneration == file.generation
    }

    /// Notes the `Alt-Svc` answer a transfer to `url` brought, if any. libcurl stores only
    /// answers over https; one not shared yet makes this handle write the file when it goes.
    func noteAltSvcAnswer(_ value: String?, from url: URL) {
        guard let file = altSvcFile, let value, let origin = CurlAltSvcFile.origin(of: url) else { return }
        if file.shares(value, from: origin) {
            holdsNewAltSvc = true
        }
    }

    /// Makes `curl_easy_cleanup` write the file only if this handle learned something, after
    /// reading what others wrote since it read the file; returns whether it will write.
    func prepareAltSvcForCleanup() -> Bool {
        guard let file = altSvcFile else { return false }
        guard holdsNewAltSvc else {
            // An empty name: libcurl then writes nothing, so an older copy never replaces the file.
            try? Curl.set(pointer, .altSvc, "")
            return false
        }
        if altSvcGeneration != file.generation {
            // Entries read twice are written twice; libcurl uses the first that matches.
            try? Curl.set(pointer, .altSvc, file.path)
        }
        return true
    }
}
