import Foundation
import TelegramAPI
import TutorCore
import TutorStore

/// Each outbox row as a Bot API request: sign pictures uploaded once and then sent by file_id,
/// the progress chart drawn at send time, edits resolved to the message they change. Nothing here
/// blocks a cooperative thread: database reads, files and drawing go to the sender's own queues.
extension OutboxSender {
    /// Performs the request; returns the message id Telegram gave back, if any.
    func send(_ item: OutboxItem) async throws -> Int64? {
        switch item.method {
        case "sendPhoto" where item.picture == OutboxRenderer.chartPicture:
            let body = item.body
            let png = try await drawings.run { try Self.drawChart(body) }
            return try await api.sendPhoto(chatID: item.chatID, png: png, filename: "progress.png").messageID
        case "sendPhoto":
            guard let picture = item.picture else { return try await plain(item) }
            return try await sendSign(picture, to: item.chatID)
        case "editMessageText":
            // "Message is not modified" (the same text again) reaches `deliver`, which counts it as sent.
            guard let tag = item.editTag else {
                _ = try await plain(item)
                return nil
            }
            guard let id = try await messageID(chatID: item.chatID, tag: tag) else {
                // The message to edit never arrived (it failed for good): say it afresh instead.
                let request = try JSONDecoder().decode(EditMessageTextRequest.self, from: item.body)
                let markup = request.replyMarkup?.inlineKeyboard.isEmpty == false ? request.replyMarkup : nil
                let fresh = SendMessageRequest(chatID: item.chatID, text: request.text, replyMarkup: markup)
                return try await api.sendMessage(fresh).messageID
            }
            if let body = EditMessageTextRequest.body(item.body, chatID: item.chatID, messageID: id) {
                var edit = item
                edit.body = body
                _ = try await plain(edit)
            } else {
                var request = try JSONDecoder().decode(EditMessageTextRequest.self, from: item.body)
                request.messageID = id
                try await api.editMessageText(request)
            }
            return id
        default:
            return try await plain(item)
        }
    }

    func plain(_ item: OutboxItem) async throws -> Int64? {
        try await api.send(item.method, .json(item.body))
    }

    /// The message a tag names: delivered by this process lately (memory), or recorded before.
    private func messageID(chatID: Int64, tag: String) async throws -> Int64? {
        if let known = messageRefs.messageID(chatID: chatID, tag: tag) { return known }
        let stored = try await reads.run { [store] in try store.messageID(chatID: chatID, tag: tag) }
        if let stored { messageRefs.remember(chatID: chatID, tag: tag, messageID: stored) }
        return stored
    }

    /// A sign picture: by Telegram's file_id once it has one, uploaded the first time. The file_id
    /// is recorded beside the send, not in it: a picture the learner got is delivered even if the
    /// record can't be written (a busy or full database), and this process keeps the id in memory.
    private func sendSign(_ picture: String, to chatID: Int64) async throws -> Int64? {
        if let fileID = try await pictureFileID(picture) {
            return try await api.sendPhoto(SendPhotoRequest(chatID: chatID, photo: fileID))
        }
        let path = "\(banksDirectory)/signs/\(picture).png"
        guard let png = try await reads.run({ FileManager.default.contents(atPath: path) }) else {
            throw SendError.missingPicture(path)
        }
        let message = try await api.sendPhoto(chatID: chatID, png: png, filename: "\(picture).png")
        if let fileID = message.photo?.max(by: { ($0.width ?? 0) < ($1.width ?? 0) })?.fileID {
            pictureFileIDs[picture] = fileID
            writes.start { [store, logger] in
                do {
                    try store.savePictureFileID(picture, fileID: fileID)
                } catch {
                    logger.warning(
                        """
                        sign picture \(picture) sent, its file_id not recorded (uploaded again after a restart): \
                        \(error)
                        """
                    )
                }
            }
        }
        return message.messageID
    }

    private func pictureFileID(_ picture: String) async throws -> String? {
        if let known = pictureFileIDs[picture] { return known }
        let stored = try await reads.run { [store] in try store.pictureFileID(picture) }
        if let stored { pictureFileIDs[picture] = stored }
        return stored
    }

    private static func drawChart(_ body: Data) throws -> Data {
        let spec = try JSONDecoder().decode(ScoreChartSpec.self, from: body)
        let points = spec.points.map { ScoreChart.Point(date: $0.date, percent: $0.percent) }
        guard
            let png = ScoreChart.png(
                points: points, passPercent: spec.passPercent, title: spec.learnerName,
                timeZone: TimeZone(identifier: spec.timeZone) ?? .gmt)
        else {
            throw SendError.chartFailed
        }
        return png
    }
}
