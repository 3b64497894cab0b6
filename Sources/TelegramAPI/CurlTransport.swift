import CCurl
import Foundation
import Synchronization

/// A request body for the Bot API: JSON, or multipart for file uploads.

/// HTTP through libcurl's multi interface on one dedicated thread.
///
/// `curl_easy_perform` blocks, so it must never run on Swift's cooperative pool (two threads
/// here). Instead every request, the long poll included, is an easy handle added to one multi
/// handle that a private thread drives through libcurl's socket interface and epoll (see the
/// shim: only sockets with something to do are looked at); callers await a continuation (or
/// leave a callback the curl thread runs).
/// The multi handle's connection cache keeps connections alive across requests.
public final class CurlTransport: BotAPITransport, @unchecked Sendable {
    // @unchecked Sendable: all libcurl handles (`multi`, the easy handles, `transfers`, `idle`)
    // are created, used and freed only on `thread`. Other threads touch only `incoming`, which is
    // behind a Mutex, and call `curl_multi_wakeup`, which libcurl documents as thread-safe.
    private let baseURL: String
    private let token: BotToken
    private let connectTimeout: TimeInterval
    private let multi: UnsafeMutableRawPointer
    /// The epoll set the curl thread waits on (libcurl's sockets and `wakeup`) and when libcurl
    /// next wants a look (`timer_due`, monotonic ms, -1 for none), shared with the shim's
    /// callbacks, which run on the curl thread; and the eventfd other threads signal. They live as
    /// long as the process: a late `post` may still signal `wakeup`, so it is never closed.
    private let loop = UnsafeMutablePointer<pr_curl_loop>.allocate(capacity: 1)
    private let wakeup: Int32
    private let incoming = Mutex(Inbox())
    private var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
    private var idle: [UnsafeMutableRawPointer] = []
    private var thread: Thread?

    /// `baseURL` like "https://api.telegram.org"; requests go to `{base}/bot{token}/{method}`.
    public init(baseURL: String, token: BotToken, connectTimeout: TimeInterval = 10) {
        CurlTransport.globalInit
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.connectTimeout = connectTimeout
        self.multi = curl_multi_init()!
        // Enough kept-alive connections for every request the sender has in flight (256 chats and
        // 256 tap answers): with 64, a busy minute opened and closed thousands of connections (a
        // TLS handshake each against Telegram), which was a good part of the machine under load.
        _ = pr_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 600)
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeup = pr_eventfd()
        precondition(
            epoll >= 0 && wakeup >= 0 && pr_epoll_add_readable(epoll, wakeup) == 0,
            "the curl thread's epoll set: \(String(cString: strerror(errno)))")
        loop.initialize(to: pr_curl_loop(epfd: epoll, multi: multi, timer_due: -1))
        pr_curl_multi_use_epoll(loop)
        // Held by its thread until `shutdown()` ends the loop: the thread reads the transport when
        // it wakes, and an unowned reference crashed when the bot that owned it was gone first.
        let t = Thread { [self] in self.run() }
        thread = t
        t.start()
    }

    /// What `top -H`, `perf` and /proc call the curl thread (Linux keeps 15 characters). It showed
    /// under the name of the thread that started it, so a profile couldn't tell the I/O thread
    /// from Swift's workers.
    public static let threadName = "curl-transport"

    static let receiveBuffer = 4_096
    /// Easy handles kept for reuse (connections live on in the multi handle's cache either way).
    /// 64, not one per request the sender can have in flight: under a burst some requests make
    /// a new handle, which costs a little CPU, while keeping hundreds holds memory after the
    /// burst; memory is the scarcer of the two here.
    static let idleHandlesKept = 64

    /// `curl_global_init` once per process, before any handle (Swift runs this lazily, exactly once).
    private static let globalInit: Void = { _ = pr_curl_global_init() }()

    /// What other threads hand the curl thread: new requests, requests to abandon, the stop.
    private struct Inbox {
        var new: [Transfer] = []
        var cancelled: [UInt64] = []
        var stopping = false
        var nextID: UInt64 = 0
    }

    /// Thrown to a request abandoned because its task was cancelled or the transport shut down.
    public struct Cancelled: Error, CustomStringConvertible {
        public var description: String { "request cancelled" }
    }

    /// A cancelled task's request ends at once (the long poll included: a stop need not wait out
    /// the poll's 50 s), its handle taken off the multi handle on the curl thread.
    nonisolated(nonsending) public func post(_ method: String, _ body: RequestBody, timeout: TimeInterval) async throws
        -> HTTPResult
    {
        let id = incoming.withLock { inbox -> UInt64 in
            inbox.nextID += 1
            return inbox.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { cont in
                hand(
                    Transfer(id: id, method: method, body: body, timeout: timeout, completion: .continuation(cont)),
                    inCancellableTask: true)
            }
        } onCancel: {
            incoming.withLock { $0.cancelled.append(id) }
            pr_eventfd_signal(wakeup)
        }
    }

    public func post(
        _ method: String, _ body: RequestBody, timeout: TimeInterval,
        then: @escaping @Sendable (Result<HTTPResult, Error>) -> Void
    ) {
        let id = incoming.withLock { inbox -> UInt64 in
            inbox.nextID += 1
            return inbox.nextID
        }
        hand(
            Transfer(id: id, method: method, body: body, timeout: timeout, completion: .callback(then)),
            inCancellableTask: false)
    }

    /// Puts a request in the curl thread's inbox (or ends it at once if the transport is shut down,
    /// or its task is already cancelled). The task's flag is read under the inbox's lock: a task
    /// cancelled before `post` began runs its cancellation handler first, and the curl thread
    /// could take that id out of the inbox before the request came in, then run the request
    /// to its end (a stop waiting out the 50 s long poll). Read here, a cancellation either is
    /// seen now or lands in the inbox with or after the request, where the curl thread finds it.
    private func hand(_ transfer: Transfer, inCancellableTask: Bool) {
        let (accepted, wake) = incoming.withLock { inbox -> (Bool, Bool) in
            guard !inbox.stopping, !(inCancellableTask && Task.isCancelled) else { return (false, false) }
            inbox.new.append(transfer)
            // Only the request that finds the inbox empty wakes the curl thread: one that
            // finds others waiting comes after a wake-up not yet taken (the thread empties
            // the inbox only once woken). Under load that is most requests, each of
            // which was a write to libcurl's wake-up socket and a spurious turn of its loop.
            return (true, inbox.new.count == 1)
        }
        if !accepted { transfer.complete(.failure(Cancelled())) } else if wake { pr_eventfd_signal(wakeup) }
    }

    /// Ends every request in flight (they throw `Cancelled`) and stops the curl thread; later
    /// requests fail at once. For a clean process exit.
    public func shutdown() {
        incoming.withLock { $0.stopping = true }
        pr_eventfd_signal(wakeup)
    }

    private func run() {
        // Set here, by the thread itself: Foundation's `Thread.name`, set before start, didn't
        // reach the system's name for the thread.
        Thread.current.name = Self.threadName
        var running: Int32 = 0
        while true {
            let inbox = incoming.withLock { inbox -> Inbox in
                defer {
                    inbox.new.removeAll()
                    inbox.cancelled.removeAll()
                }
                return inbox
            }
            if inbox.stopping {
                for t in inbox.new { t.complete(.failure(Cancelled())) }
                for easy in Array(transfers.keys) { abandon(easy) }
                return
            }
            for t in inbox.new {
                // Cancelled before the curl thread saw it: never started.
                if inbox.cancelled.contains(t.id) { t.complete(.failure(Cancelled())) } else { start(t) }
            }
            if !inbox.cancelled.isEmpty {
                for (easy, t) in transfers where inbox.cancelled.contains(t.id) { abandon(easy) }
            }
            // Wait for a socket, the wake-up or libcurl's timer (a new handle sets it to now).
            let due = loop.pointee.timer_due
            let wait = due < 0 ? 1000 : max(0, min(1000, due - pr_monotonic_ms()))
            let n = pr_epoll_wait(loop.pointee.epfd, &readyFDs, &readyMasks, Int32(readyFDs.count), Int32(wait))
            for i in 0..<max(0, Int(n)) {
                if readyFDs[i] == wakeup {
                    pr_eventfd_drain(wakeup)
                } else {
                    curl_multi_socket_action(multi, readyFDs[i], readyMasks[i], &running)
                }
            }
            if loop.pointee.timer_due >= 0, loop.pointee.timer_due <= pr_monotonic_ms() {
                loop.pointee.timer_due = -1  // one-shot: libcurl sets it again if it needs another look
                curl_multi_socket_action(multi, pr_curl_socket_timeout, 0, &running)
            }
            var left: Int32 = 0
            while let msg = curl_multi_info_read(multi, &left) {
                guard msg.pointee.msg == CURLMSG_DONE, let easy = msg.pointee.easy_handle else { continue }
                finish(easy, code: msg.pointee.data.result)
            }
        }
    }

    /// The epoll events of one wait (the curl thread's own).
    private var readyFDs = [Int32](repeating: 0, count: 64)
    private var readyMasks = [Int32](repeating: 0, count: 64)

    /// Takes a request off the multi handle before it is done and throws `Cancelled` to its caller.
    private func abandon(_ easy: UnsafeMutableRawPointer) {
        curl_multi_remove_handle(multi, easy)
        guard let t = transfers.removeValue(forKey: easy) else { return }
        release(easy, t)
        t.complete(.failure(Cancelled()))
    }

    /// Frees a finished request's form and keeps its handle for reuse, options and all (or frees it).
    private func release(_ easy: UnsafeMutableRawPointer, _ t: Transfer) {
        if let m = t.mime {
            // A handle that sent a form is not reused: its options point at the form just freed.
            curl_easy_cleanup(easy)
            curl_mime_free(m)
        } else if idle.count < Self.idleHandlesKept {
            idle.append(easy)
        } else {
            curl_easy_cleanup(easy)  // after a burst, keep a few for the next one, not all
        }
    }

    /// The options every request shares, set once per handle: a reused handle keeps them (libcurl
    /// keeps an easy handle's options across transfers), so a request sets only what is its own.
    private func configure(_ easy: UnsafeMutableRawPointer) {
        _ = pr_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = pr_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
        _ = pr_curl_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1)
        // Each handle keeps a receive buffer (16 KB by default) for as long as it lives, and under
        // load hundreds are in flight: answers are a few hundred bytes, so 4 KB (a long poll's
        // bigger answer just arrives in more pieces). 500 handles: 6 MB less resident.
        _ = pr_curl_setopt_long(easy, CURLOPT_BUFFERSIZE, Self.receiveBuffer)
        _ = pr_curl_setopt_write(easy) { ptr, size, count, userdata in
            let t = Unmanaged<Transfer>.fromOpaque(userdata!).takeUnretainedValue()
            let n = size * count
            if let ptr { t.response.append(UnsafeRawPointer(ptr).assumingMemoryBound(to: UInt8.self), count: n) }
            return n
        }
    }

    /// The request headers, built once and shared by every handle (libcurl only reads them). An
    /// empty "Expect:" stops libcurl waiting for "100 Continue" on larger bodies.
    nonisolated(unsafe) private static let jsonHeaders = curl_slist_append(
        curl_slist_append(nil, "Expect:"), "Content-Type: application/json")
    nonisolated(unsafe) private static let formHeaders = curl_slist_append(nil, "Expect:")

    /// Each method's URL, spelled once (they are a handful). Only the curl thread touches it.
    private var urls: [String: String] = [:]

    private func url(for method: String) -> String {
        if let url = urls[method] { return url }
        let url = "\(baseURL)/\(token.urlPath)/\(method)"
        urls[method] = url
        return url
    }

    private func start(_ t: Transfer) {
        let easy: UnsafeMutableRawPointer
        if let reused = idle.popLast() {
            easy = reused
        } else {
            easy = curl_easy_init()!
            configure(easy)
        }
        t.easy = easy
        _ = pr_curl_setopt_string(easy, CURLOPT_URL, url(for: t.method))
        _ = pr_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(t.timeout * 1000))
        _ = pr_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(t).toOpaque())
        switch t.body {
        case .json(let data):
            _ = pr_curl_setopt_long(easy, CURLOPT_POST, 1)
            _ = pr_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, data.count)
            data.withUnsafeBytes { raw in
                _ = pr_curl_setopt_pointer(
                    easy, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            _ = pr_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, Self.jsonHeaders)
        case .multipart(let parts):
            let mime = curl_mime_init(easy)
            for p in parts {
                let part = curl_mime_addpart(mime)
                curl_mime_name(part, p.name)
                p.data.withUnsafeBytes { raw in
                    _ = curl_mime_data(part, raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count)
                }
                if let f = p.filename { curl_mime_filename(part, f) }
                if let c = p.contentType { curl_mime_type(part, c) }
            }
            _ = pr_curl_setopt_mime(easy, CURLOPT_MIMEPOST, mime)
            _ = pr_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, Self.formHeaders)
            t.mime = mime
        }
        let added = curl_multi_add_handle(multi, easy)
        guard added == CURLM_OK else {
            // Never leave a caller waiting on a request libcurl did not take.
            release(easy, t)
            t.complete(
                .failure(
                    TransportError.network(
                        "libcurl refused the request (\(String(cString: curl_multi_strerror(added))))")))
            return
        }
        transfers[easy] = t
    }

    private func finish(_ easy: UnsafeMutableRawPointer, code: CURLcode) {
        curl_multi_remove_handle(multi, easy)
        guard let t = transfers.removeValue(forKey: easy) else { return }
        var status = 0
        _ = pr_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        release(easy, t)
        if code == CURLE_OK {
            t.complete(.success(HTTPResult(status: status, body: t.response)))
        } else {
            // The error text names the failure only; the URL (which holds the token) is never included.
            t.complete(.failure(TransportError.network(String(cString: curl_easy_strerror(code)))))
        }
    }
}

/// One request in flight; owned by the transport's thread once started.
private final class Transfer: @unchecked Sendable {
    // @unchecked Sendable: created on the caller's thread, then handed once (under the Mutex) to
    // the curl thread, which is the only one to touch it afterwards.
    let id: UInt64
    let method: String
    let body: RequestBody
    let timeout: TimeInterval
    let completion: Completion
    var easy: UnsafeMutableRawPointer?
    var mime: OpaquePointer?
    var response = Data()

    /// Who hears the outcome: a task awaiting it, or a callback run on the curl thread.
    enum Completion {
        case continuation(CheckedContinuation<HTTPResult, Error>)
        case callback(@Sendable (Result<HTTPResult, Error>) -> Void)
    }

    init(id: UInt64, method: String, body: RequestBody, timeout: TimeInterval, completion: Completion) {
        self.id = id
        self.method = method
        self.body = body
        self.timeout = timeout
        self.completion = completion
    }

    /// Exactly once per request, by whoever ends it (the curl thread, or `hand` when shut down).
    func complete(_ outcome: Result<HTTPResult, Error>) {
        switch completion {
        case .continuation(let c): c.resume(with: outcome)
        case .callback(let then): then(outcome)
        }
    }
}

/// Thrown by a transport that has no more updates to give (the console chat at end of input).
public struct TransportClosed: Error {
    public init() {}
}

/// The bot token, in a type that never prints it: `"\(token)"`, a log line, a dump or an error
/// message shows "<bot token>", so the secret can reach the network only through `urlPath`.
public struct BotToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    ExpressibleByStringLiteral
{
    private let secret: String

    public init(_ secret: String) { self.secret = secret }
    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { "<bot token>" }
    public var debugDescription: String { "<bot token>" }
    /// The one place the token is spelled out: the request path `bot<token>`.
    var urlPath: String { "bot\(secret)" }
    /// Whether it is empty (no token configured).
    public var isEmpty: Bool { secret.isEmpty }
}
