import Foundation

extension ParityCatalogue {
    static let methods: [ParityCase] = [
        ParityCase("GET", .get("/get")),
        ParityCase("HEAD", .send("HEAD", "/get")),
        ParityCase("OPTIONS", .send("OPTIONS", "/anything")),
        ParityCase("POST with a body", .send("POST", "/anything", body: Data("post".utf8))),
        ParityCase("PUT with a body", .send("PUT", "/anything", body: Data("put".utf8))),
        ParityCase("PATCH with a body", .send("PATCH", "/anything", body: Data("patch".utf8))),
        ParityCase("DELETE without a body", .send("DELETE", "/anything")),
        ParityCase("custom method PURGE", .send("PURGE", "/anything")),
        ParityCase("HEAD with a body", .send("HEAD", "/anything", body: Data("head".utf8))),
        ParityCase("DELETE with a body", .send("DELETE", "/anything", body: Data("delete".utf8))),
        ParityCase("OPTIONS with a body", .send("OPTIONS", "/anything", body: Data("options".utf8))),
        ParityCase("lower-case get", .send("get", "/anything")),
        ParityCase("lower-case head", .send("head", "/anything")),
        ParityCase("lower-case post with a body", .send("post", "/anything", body: Data("post".utf8))),
        ParityCase("lower-case delete", .send("delete", "/anything")),
        // Both refuse it before sending (URLError.dataLengthExceedsMaximum, URLSession's answer).
        ParityCase("GET with a body", .send("GET", "/anything", body: Data("get".utf8))),
    ]
}
