import Foundation
import Synchronization
import TutorCore

/// Chats as last committed, bounded (cleared whole when full: simple, and a miss only costs a read).
final class ChatCache: Sendable {
    /// Each state in a box: a dictionary keeps room for more entries than it holds, and a
    /// ChatState is several hundred bytes inline (a full table was 1.5 MB with 1,000 chats).
    private final class Entry: Sendable {
        let state: ChatState
        init(_ state: ChatState) { self.state = state }
    }
    private let map = Mutex([Int64: Entry]())
    static let limit = 20_000

    func get(_ chatID: Int64) -> ChatState? { map.withLock { $0[chatID]?.state } }
    func forget(_ chatID: Int64) { _ = map.withLock { $0.removeValue(forKey: chatID) } }
    func put(_ states: [ChatState]) {
        map.withLock { m in
            if m.count + states.count > Self.limit { m.removeAll(keepingCapacity: true) }
            for s in states { m[s.learner.chatID] = Entry(s) }
        }
    }
}
