import Foundation
import TelegramAPI
import TutorCore
import TutorStore

/// Each outbox row as a Bot API request: sign pictures uploaded once and then sent by file_id,
/// the progress chart drawn at send time, edits resolved to the message they change.
extension OutboxSender {
    /// Performs the request; returns the message id Telegram gave back, if any.
    func send(_ item: OutboxItem) async throws -> Int64? {
        switch item.method {
        case "sendPhoto" where item.picture == OutboxRenderer.chartPicture:
            let spec = try JSONDecoder().decode(ScoreChartSpec.self, from: item.body)
            guard let png = ScoreChart.png(points: spec.points.map { ScoreChart.Point(date: $0.date, percent: $0.percent) },
                                           passPercent: spec.passPercent, title: spec.learnerName,
                                           timeZone: TimeZone(identifier: spec.timeZone) ?? .gmt) else {
                throw SendError.chartFailed
            }
            return try await api.sendPhoto(chatID: item.chatID, png: png, filename: "progress.png").messageID
        case "sendPhoto":
            guard let picture = item.picture else { return try await plain(item) }
            if let fileID = try pictureFileIDs[picture] ?? store.pictureFileID(picture) {
                pictureFileIDs[picture] = fileID
                return try await api.sendPhoto(SendPhotoRequest(chatID: item.chatID, photo: fileID))
            }
            let path = "\(banksDirectory)/signs/\(picture).png"
            guard let png = FileManager.default.contents(atPath: path) else { throw SendError.missingPicture(path) }
            let message = try await api.sendPhoto(chatID: item.chatID, png: png, filename: "\(picture).png")
            if let fileID = message.photo?.max(by: { ($0.width ?? 0) < ($1.width ?? 0) })?.fileID {
                try store.savePictureFileID(picture, fileID: fileID)
                pictureFileIDs[picture] = fileID
            }
            return message.messageID
        case "editMessageText":
            // "Message is not modified" (the same text again) reaches `deliver`, which counts it as sent.
            guard let tag = item.editTag else { _ = try await plain(item); return nil }
            guard let id = try unmarkedRefs["\(item.chatID)/\(tag)"] ?? store.messageID(chatID: item.chatID, tag: tag) else {
                // The message to edit never arrived (it failed for good): say it afresh instead.
                let request = try JSONDecoder().decode(EditMessageTextRequest.self, from: item.body)
                let markup = request.replyMarkup?.inlineKeyboard.isEmpty == false ? request.replyMarkup : nil
                return try await api.sendMessage(SendMessageRequest(chatID: item.chatID, text: request.text, replyMarkup: markup)).messageID
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
}
