import Foundation
import TutorCore
import TutorStore

extension Bot {
    /// How far back a follow-up ("what about in california") reaches for the question it repeats.
    static let followUpWindow: TimeInterval = 30 * 60

    /// A follow-up that names only a state ("what about in california", "and oregon?") gets the
    /// chat's last answered question again, for that state (play-testers' follow-ups were all
    /// declined); nil when the text is a question of its own or nothing was answered lately.
    func askedAgain(_ text: String, ask: AskIndex, chatID: Int64, now: Date) throws -> AskLookup? {
        guard let state = AskQuery.followUpState(text, corpus: ask.corpus) else { return nil }
        // A log that can't be read costs the follow-up, not the look-up: the text is then looked up as it is.
        let recent: [String]
        do {
            recent = try store.recentAnsweredAsks(chatID: chatID, since: now.addingTimeInterval(-Self.followUpWindow))
        } catch {
            logger.error("chat \(chatID): the ask log could not be read for a follow-up: \(error)")
            return nil
        }
        guard let last = recent.first(where: { AskQuery.followUpState($0, corpus: ask.corpus) == nil }) else {
            return nil
        }
        return try ask.lookUp(last, learnerState: state, forState: state)
    }
}
