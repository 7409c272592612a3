import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP/1.1 request as the harness reads it: enough for a browser's page loads, manifest
/// fetches and `fetch()` posts (no chunked bodies, one request a connection).
struct HTTPRequest: Sendable {
    var method: String
    /// The path without the query.
    var path: String
    /// The query's `name=value` pairs, percent-decoded.
    var query: [String: String]
    /// Header names lower-cased.
    var headers: [String: String]
    var body: Data

    /// The cookies the browser sent, by name.
    var cookies: [String: String] {
        var cookies: [String: String] = [:]
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            cookies[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return cookies
    }
}

/// The answer to an ``HTTPRequest``.
struct HTTPResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: Data = Data()

    static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }

    /// The bytes on the wire; a `HEAD` request gets the headers alone.
    func serialized(forHead head: Bool) -> Data {
        let reasons = [200: "OK", 204: "No Content", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"]
        var text = "HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        return Data(text.utf8) + (head ? Data() : body)
    }
}

/// What went wrong opening the listening socket: the system call and its `errno`.
struct LoopbackHTTPServerError: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
}

/// A plain HTTP server on 127.0.0.1 over POSIX sockets: each connection is read on a thread of its
/// own (a browser opens connections it may never use), and its one request answered by `handler`.
/// Test harness only: the package itself has no server. The process ignores `SIGPIPE`, so a peer
/// that goes away makes a write fail rather than end the process.
final class LoopbackHTTPServer: Sendable {
    /// The port the system chose (or the one asked for).
    let port: UInt16
    private let socket: Int32
    private let handler: @Sendable (HTTPRequest) async -> HTTPResponse

    /// Listens on 127.0.0.1:`port` (0: any free port).
    init(port: UInt16, handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) throws {
        #if canImport(Glibc)
            let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let listener = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard listener >= 0 else { throw LoopbackHTTPServerError(call: "socket", code: errno) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw LoopbackHTTPServerError(call: "bind", code: errno) }
        guard listen(listener, 64) == 0 else { throw LoopbackHTTPServerError(call: "listen", code: errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else { throw LoopbackHTTPServerError(call: "getsockname", code: errno) }
        self.port = UInt16(bigEndian: address.sin_port)
        self.socket = listener
        self.handler = handler
    }

    /// Accepts connections on a thread of its own until the process ends.
    func start() {
        let listener = socket
        let handler = handler
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                Thread.detachNewThread { Self.serve(connection, handler: handler) }
            }
        }
    }

    /// Reads one request from `connection`, answers it and closes it.
    private static func serve(_ connection: Int32, handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        guard let request = read(connection) else {
            close(connection)
            return
        }
        Task {
            let response = await handler(request)
            write(response.serialized(forHead: request.method == "HEAD"), to: connection)
            close(connection)
        }
    }

    private static let maximumHeaderBytes = 64 * 1024
    private static let maximumBodyBytes = 1024 * 1024

    /// The request on `connection`, or nil when the peer closes first or sends what is not one.
    private static func read(_ connection: Int32) -> HTTPRequest? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headerEnd = buffer.range(of: separator)
            if headerEnd == nil, buffer.count > maximumHeaderBytes { return nil }
        }
        guard let headerEnd, let head = String(data: buffer[..<headerEnd.lowerBound], encoding: .utf8) else {
            return nil
        }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? -1
        guard length >= 0, length <= maximumBodyBytes else { return nil }
        var body = Data(buffer[headerEnd.upperBound...])
        while body.count < length {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        let target = String(requestLine[1])
        let components = URLComponents(string: target)
        var query: [String: String] = [:]
        for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
        return HTTPRequest(
            method: String(requestLine[0]), path: components?.path ?? target, query: query, headers: headers,
            body: body.prefix(length))
    }

    private static func write(_ data: Data, to connection: Int32) {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, 0)
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }
}
