import CCurl
import Foundation
import Synchronization

public enum RequestBody: Sendable {
    case json(Data)
    case multipart([MultipartPart])
}

public struct MultipartPart: Sendable {
    public var name: String
    public var data: Data
    public var filename: String?
    public var contentType: String?

    public init(name: String, data: Data, filename: String? = nil, contentType: String? = nil) {
        self.name = name
        self.data = data
        self.filename = filename
        self.contentType = contentType
    }
}

/// A raw HTTP result: status and body (the Bot API puts its error details in the body).
public struct HTTPResult: Sendable {
    public var status: Int
    public var body: Data
    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

public enum TransportError: Error, CustomStringConvertible, Equatable {
    /// The request never got a response (refused, reset, timed out, DNS…).
    case network(String)

    public var description: String {
        switch self {
        case .network(let s): return "network error: \(s)"
        }
    }
}

/// The one seam between the bot and Telegram: POST a method, get the HTTP result.
public protocol BotAPITransport: Sendable {
    /// Runs on the caller's executor (`nonisolated(nonsending)`): the sender's actor awaits it,
    /// and the answer resumes the sender directly instead of a worker that then hops back to it.
    nonisolated(nonsending) func post(_ method: String, _ body: RequestBody, timeout: TimeInterval) async throws
        -> HTTPResult

    /// The same request without a task waiting on it: `then` gets the outcome, on the transport's
    /// own thread (so it must be short and must not block). For the tap answers, a request each
    /// with nobody waiting for its answer: a task and its wake-ups each were a few per cent of an
    /// update.
    func post(
        _ method: String, _ body: RequestBody, timeout: TimeInterval,
        then: @escaping @Sendable (Result<HTTPResult, Error>) -> Void)

    /// Ends requests in flight and frees what the transport holds (threads, descriptors).
    func shutdown()
}

extension BotAPITransport {
    public func shutdown() {}
}

extension BotAPITransport {
    /// A transport with no thread of its own (the console's) runs the request in a task.
    public func post(
        _ method: String, _ body: RequestBody, timeout: TimeInterval,
        then: @escaping @Sendable (Result<HTTPResult, Error>) -> Void
    ) {
        Task {
            do { then(.success(try await post(method, body, timeout: timeout))) } catch { then(.failure(error)) }
        }
    }
}
