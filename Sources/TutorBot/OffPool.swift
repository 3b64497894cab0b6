import Foundation

/// Blocking work (SQLite, files) runs on threads of its own, never on Swift's cooperative pool
/// (two threads on this machine): a batch's commit, the sender's marks or an hour's pruning must
/// not hold up taking in updates or answering taps. Each queue is serial: work on it is done in
/// the order it was handed over, as the one SQLite writer needs anyway.
struct OffPool: Sendable {
    let queue: DispatchQueue

    init(_ label: String, qos: DispatchQoS = .userInitiated) {
        queue = DispatchQueue(label: "permitready.\(label)", qos: qos)
    }

    /// Runs `body` on this queue's thread and resumes the caller with its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Hands `body` over without waiting for it.
    func start(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }
}
