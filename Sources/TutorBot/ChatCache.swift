import Foundation
import Synchronization
import TutorCore

/// Chats as last committed, with the learner row's version each was saved at (a save from a copy
/// another process has since overtaken is refused: see `TutorStore.claimVersion`). Bounded
/// (cleared whole when full: simple, and a miss only costs a read).
final class ChatCache: Sendable {
    /// Each state in a box: a dictionary keeps room for more entries than it holds, and a
    /// ChatState is several hundred bytes inline, so unboxed the spare room alone is large.
    private final class Entry: Sendable {
        let state: ChatState
        let version: Int64
        init(_ state: ChatState, version: Int64) {
            self.state = state
            self.version = version
        }
    }
    private let map = Mutex([Int64: Entry]())
    static let limit = 20_000

    func get(_ chatID: Int64) -> (state: ChatState, version: Int64)? {
        map.withLock { $0[chatID].map { (state: $0.state, version: $0.version) } }
    }
    func forget(_ chatID: Int64) { _ = map.withLock { $0.removeValue(forKey: chatID) } }
    func put(_ chats: [(state: ChatState, version: Int64)]) {
        map.withLock { m in
            if m.count + chats.count > Self.limit { m.removeAll(keepingCapacity: true) }
            for c in chats { m[c.state.learner.chatID] = Entry(c.state, version: c.version) }
        }
    }
}
