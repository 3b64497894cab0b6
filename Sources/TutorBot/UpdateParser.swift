import Foundation
import TelegramAPI
import TutorCore

/// A Telegram update turned into a dialogue event for one chat.
public struct ParsedUpdate: Equatable, Sendable {
    public var chatID: Int64
    public var sender: Sender
    public var isGroup: Bool
    public var event: Event
}

/// `Update → ParsedUpdate?`, pure. Updates we have no use for (channel posts, other bots'
/// messages, kinds Telegram adds later) give nil and are skipped and counted by the caller.
public enum UpdateParser {
    /// Longest text we look at; Telegram caps messages at 4096 anyway, this guards a forged update.
    static let maxText = 4096

    public static func parse(_ update: Update) -> ParsedUpdate? {
        if let q = update.callbackQuery {
            guard let message = q.message else { return nil }
            let action = q.data.flatMap(ButtonAction.init(callbackData:))
            return ParsedUpdate(
                chatID: message.chat.id, sender: sender(q.from), isGroup: !message.chat.isPrivate,
                event: .buttonTapped(callbackID: q.id, action: action, messageID: message.messageID))
        }
        if let m = update.message {
            guard let from = m.from, !from.isBot else { return nil }
            return ParsedUpdate(
                chatID: m.chat.id, sender: sender(from), isGroup: !m.chat.isPrivate, event: event(for: m))
        }
        if let m = update.editedMessage, let from = m.from, !from.isBot {
            return ParsedUpdate(
                chatID: m.chat.id, sender: sender(from), isGroup: !m.chat.isPrivate, event: .messageEdited)
        }
        if let member = update.myChatMember, member.chat.isPrivate {
            let status = member.newChatMember.status
            let event: Event = (status == "kicked" || status == "left") ? .botBlocked : .botUnblocked
            return ParsedUpdate(chatID: member.chat.id, sender: sender(member.from), isGroup: false, event: event)
        }
        return nil
    }

    static func sender(_ u: User) -> Sender {
        Sender(userID: u.id, firstName: String(u.firstName.prefix(64)), languageCode: u.languageCode)
    }

    static func event(for m: TelegramAPI.Message) -> Event {
        guard let text = m.text else { return .unsupportedContentSent(kind: m.contentKind ?? "other") }
        if text.count > maxText { return .textSent(String(text.prefix(maxText))) }
        guard text.hasPrefix("/") else { return .textSent(text) }
        // "/start@PermitReadyBot CA" → command "start", payload "CA".
        let parts = text.dropFirst().split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let name = parts.first.map { String($0.split(separator: "@").first ?? "").lowercased() } ?? ""
        let payload = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : nil
        guard let command = Command(rawValue: name) else { return .unknownCommandSent(name) }
        return .commandSent(command, payload: payload.flatMap { $0.isEmpty ? nil : String($0.prefix(64)) })
    }
}
