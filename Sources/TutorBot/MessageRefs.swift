/// The message ids of tagged messages the sender delivered (a question, a results screen), so an
/// edit of them (an answer marks the question ✅/❌) finds its message without a database read.
/// The database's `message_ref` stays the record: after a restart, or for a chat not seen lately,
/// the sender reads it there (off the cooperative pool).
///
/// Bounded by chats, in two generations: when the current one holds `chatsPerGeneration` chats it
/// becomes the previous one and the oldest is dropped. A chat active in either is kept, so a
/// learner mid-quiz never loses their refs to a busy hour; at most twice the limit is held.
struct MessageRefs {
    let chatsPerGeneration: Int
    private var current: [Int64: [String: Int64]] = [:]
    private var previous: [Int64: [String: Int64]] = [:]

    init(chatsPerGeneration: Int = 20_000) {
        self.chatsPerGeneration = max(1, chatsPerGeneration)
    }

    func messageID(chatID: Int64, tag: String) -> Int64? {
        current[chatID]?[tag] ?? previous[chatID]?[tag]
    }

    mutating func remember(chatID: Int64, tag: String, messageID: Int64) {
        if current[chatID] == nil {
            // A chat of the previous generation comes along with its refs.
            let carried = previous.removeValue(forKey: chatID) ?? [:]
            if current.count >= chatsPerGeneration {
                previous = current
                current = [:]
            }
            current[chatID] = carried
        }
        current[chatID, default: [:]][tag] = messageID
    }

    /// The chat's rows were erased ("delete my data"): its old messages are not to be edited.
    mutating func forget(chatID: Int64) {
        current.removeValue(forKey: chatID)
        previous.removeValue(forKey: chatID)
    }

    var chatCount: Int { current.count + previous.count }
}
