import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 (and nothing else) for fault tests: each request goes to
/// a handler that answers it, drops the connection, or holds it open until the server stops.
final class LoopbackServer: @unchecked Sendable {
    /// A request as received.
    struct Request: Sendable {
        var method: String
        var path: String
        var query: String
        var headers: [String: String]
        var body: String

        /// The form fields of the body (or the query, for a GET), decoded.
        var form: [String: String] {
            var fields: [String: String] = [:]
            for pair in (method == "GET" ? query : body).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                    String($0).removingPercentEncoding ?? String($0)
                }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            return fields
        }
    }

    /// What to do with a request.
    enum Action: Sendable {
        /// Answer with this status, headers and body.
        case respond(Int, [String: String], String)
        /// Close the connection without an answer.
        case drop
        /// Keep the connection open without an answer until the server stops.
        case hang
    }

    private let socket: Int32
    /// The port the server listens on.
    let port: UInt16
    private let handler: @Sendable (Request) -> Action
    private let held = Mutex<[Int32]>([])
    private let stopped = Mutex(false)

    /// `http://127.0.0.1:port`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts a server on a free loopback port.
    init(handler: @escaping @Sendable (Request) -> Action) throws {
        self.handler = handler
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        socket = fd
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops listening and closes every held connection.
    func stop() {
        // Once only: a second close could close a descriptor number reused by someone else.
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
        for connection in held.withLock({ list in
            defer { list = [] }
            return list
        }) {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    deinit { stop() }

    private func acceptLoop() {
        while !stopped.withLock({ $0 }) {
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { return }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = read(connection) else {
            close(connection)
            return
        }
        switch handler(request) {
        case .drop:
            close(connection)
        case .hang:
            held.withLock { $0.append(connection) }
        case .respond(let status, let headers, let body):
            var text = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n"
            text += "Content-Type: application/json\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            text += "\r\n" + body
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                sent += count
            }
            close(connection)
        }
    }

    private func read(_ connection: Int32) -> Request? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            if let end = headerEnd, data.count >= end + contentLength { break }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data.append(contentsOf: buffer[0..<count])
            if headerEnd == nil, let range = findHeaderEnd(data) {
                headerEnd = range
                let head = String(decoding: data[0..<range], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
        let end = headerEnd!
        let head = String(decoding: data[0..<end], as: UTF8.self).split(separator: "\r\n").map(String.init)
        let requestLine = head[0].split(separator: " ").map(String.init)
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { headers[parts[0].lowercased()] = parts[1] }
        }
        let target = requestLine.count > 1 ? requestLine[1] : "/"
        let pieces = target.split(separator: "?", maxSplits: 1).map(String.init)
        return Request(
            method: requestLine[0], path: pieces[0], query: pieces.count > 1 ? pieces[1] : "", headers: headers,
            body: String(decoding: data[(end)...].prefix(contentLength), as: UTF8.self))
    }

    private func findHeaderEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4)
        where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
