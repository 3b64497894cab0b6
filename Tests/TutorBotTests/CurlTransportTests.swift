import FakeBotAPI
import Foundation
import TelegramAPI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The curl thread's event loop (libcurl's socket interface on epoll) on its own: every request
/// ends — answered, refused, timed out, cancelled or shut down — and none waits on another.
@Suite struct CurlTransportTests {
    /// A server that takes connections and never answers (the kernel completes the handshake for
    /// the backlog): a request to it waits until its timeout or its cancellation.
    final class SilentServer: @unchecked Sendable {  // the descriptor is only closed in deinit
        let fd: Int32
        let port: UInt16
        init() throws {
            let (fd, port) = CurlTransportTests.boundSocket()
            guard listen(fd, 16) == 0 else {
                close(fd)
                throw NSError(domain: "SilentServer", code: 1)
            }
            self.fd = fd
            self.port = port
        }
        deinit { close(fd) }
        var baseURL: String { "http://127.0.0.1:\(port)" }
    }

    /// A socket bound to a free port on 127.0.0.1. Never listened on, nothing is there: a
    /// connection to it is refused at once.
    static func boundSocket() -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &addr) {
            _ = $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        return (fd, UInt16(bigEndian: addr.sin_port))
    }

    static let body = RequestBody.json(Data("{}".utf8))
    /// A getUpdates the fake holds for 30 s when it has no updates, as Telegram would.
    static let longPoll = RequestBody.json(Data(#"{"offset":0,"timeout":30}"#.utf8))

    @Test func hundredsOfRequestsAtOnceAllGetTheirOwnAnswers() async throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let transport = CurlTransport(baseURL: fake.baseURL, token: "1:test")
        defer { transport.shutdown() }
        let answers = try await withThrowingTaskGroup(of: (Int, HTTPResult).self) { group in
            for i in 0..<300 {
                group.addTask {
                    let chat = 9_000 + i
                    let body = RequestBody.json(Data(#"{"chat_id":\#(chat),"text":"n\#(i)"}"#.utf8))
                    return (i, try await transport.post("sendMessage", body, timeout: 30))
                }
            }
            var all: [Int: HTTPResult] = [:]
            for try await (i, r) in group { all[i] = r }
            return all
        }
        #expect(answers.count == 300)
        for (i, r) in answers {
            #expect(r.status == 200)
            let text = String(decoding: r.body, as: UTF8.self)
            #expect(
                text.contains(#""text":"n\#(i)""#) && text.contains(#""id":\#(9_000 + i)"#), "request \(i) got \(text)")
        }
    }

    @Test func aRefusedConnectionFailsAtOnce() async throws {
        let (fd, port) = Self.boundSocket()
        defer { close(fd) }
        let transport = CurlTransport(baseURL: "http://127.0.0.1:\(port)", token: "1:test")
        defer { transport.shutdown() }
        let started = ContinuousClock.now
        await #expect(throws: TransportError.self) { try await transport.post("getMe", Self.body, timeout: 30) }
        // Refused, not timed out; and started at once (a request waits for no other event: the
        // loop looks when libcurl's timer says, not on its next 1 s turn).
        #expect(ContinuousClock.now - started < .milliseconds(900))
    }

    /// libcurl's timer (not a socket) ends this one: the loop must wake for it.
    @Test func aServerThatNeverAnswersTimesOutOnTime() async throws {
        let server = try SilentServer()
        let transport = CurlTransport(baseURL: server.baseURL, token: "1:test")
        defer { transport.shutdown() }
        let started = ContinuousClock.now
        do {
            _ = try await transport.post("getMe", Self.body, timeout: 0.5)
            Issue.record("a silent server answered")
        } catch let error as TransportError {
            #expect("\(error)".contains("imeout") || "\(error)".contains("imed out"), "\(error)")
        }
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(450) && took < .milliseconds(900), "took \(took)")
    }

    @Test func aCancelledLongPollEndsAtOnceAndTheTransportCarriesOn() async throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let transport = CurlTransport(baseURL: fake.baseURL, token: "1:test")
        defer { transport.shutdown() }
        let waiting = Task { try await transport.post("getUpdates", Self.longPoll, timeout: 45) }
        try await Task.sleep(for: .milliseconds(300))
        let started = ContinuousClock.now
        waiting.cancel()
        await #expect(throws: CurlTransport.Cancelled.self) { try await waiting.value }
        #expect(ContinuousClock.now - started < .seconds(5), "a cancelled long poll does not wait out its timeout")
        #expect(try await transport.post("getMe", Self.body, timeout: 10).status == 200)
    }

    /// A task cancelled before its request began (a stop landing between the poll loop's check
    /// and its next getUpdates) never sends it: the stop does not wait out a long poll.
    @Test func aRequestFromACancelledTaskIsNeverSent() async throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let transport = CurlTransport(baseURL: fake.baseURL, token: "1:test")
        defer { transport.shutdown() }
        let started = ContinuousClock.now
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.post("getUpdates", Self.longPoll, timeout: 45)
        }
        await #expect(throws: CurlTransport.Cancelled.self) { try await cancelled.value }
        #expect(ContinuousClock.now - started < .seconds(5))
        try await Task.sleep(for: .milliseconds(200))
        #expect(fake.calls.isEmpty, "the request never reached the server")
    }

    @Test func shutdownEndsRequestsInFlightAndRefusesNewOnes() async throws {
        let server = try SilentServer()
        let transport = CurlTransport(baseURL: server.baseURL, token: "1:test")
        let waiting = Task { try await transport.post("getUpdates", Self.body, timeout: 60) }
        try await Task.sleep(for: .milliseconds(200))
        transport.shutdown()
        await #expect(throws: CurlTransport.Cancelled.self) { try await waiting.value }
        await #expect(throws: CurlTransport.Cancelled.self) {
            try await transport.post("getMe", Self.body, timeout: 10)
        }
    }
}
