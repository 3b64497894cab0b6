import Foundation
import TelegramAPI

/// Learners who start, pick a state, and answer quiz questions by typing a letter (then "next"),
/// as real updates.
struct SyntheticLearners {
    let count: Int
    let updatesEach: Int

    func batches(size: Int) -> [[ReceivedUpdate]] {
        var all: [ReceivedUpdate] = []
        var updateID: Int64 = 1
        // Interleave learners the way a busy bot sees them.
        for step in 0..<updatesEach {
            for l in 0..<count {
                let chat = Int64(10_000 + l)
                let user = User(id: chat, firstName: "L\(l)")
                let chatObj = Chat(id: chat, type: "private")
                let update: Update
                switch step {
                case 0:
                    update = Update(
                        updateID: updateID,
                        message: Message(messageID: 1, from: user, chat: chatObj, date: 0, text: "/start"))
                case 1:
                    update = Update(
                        updateID: updateID,
                        message: Message(messageID: 2, from: user, chat: chatObj, date: 0, text: "Massachusetts"))
                case 2:
                    update = Update(
                        updateID: updateID,
                        message: Message(messageID: 3, from: user, chat: chatObj, date: 0, text: "/quiz"))
                default:
                    // Alternate a typed answer and "next", through the quiz and into new ones.
                    let text = step % 2 == 1 ? ["A", "B", "C", "D"][(l + step) % 4] : "next"
                    let finished = (step - 3) % 22 == 21
                    update = Update(
                        updateID: updateID,
                        message: Message(
                            messageID: Int64(step), from: user, chat: chatObj, date: 0,
                            text: finished ? "/quiz" : text))
                }
                all.append(ReceivedUpdate(updateID: updateID, update: update))
                updateID += 1
            }
        }
        return stride(from: 0, to: all.count, by: size).map { Array(all[$0..<min($0 + size, all.count)]) }
    }
}
