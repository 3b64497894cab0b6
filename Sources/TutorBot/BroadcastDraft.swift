import Foundation
import TutorCore

/// What an admin asked to broadcast, checked the same way wherever it was asked (the chat's
/// `/broadcast` and the command line's `permitready broadcast`): a known state (by code or full
/// name) or everyone, and a note that is not blank and fits.
public struct BroadcastDraft: Equatable, Sendable {
    /// nil: everyone.
    public var stateCode: String?
    public var text: String

    /// The longest note (the stored CHECK allows 3,500; the rendered message must stay well
    /// under Telegram's 4,096 with its heading).
    public static let maxLength = 3_000

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case empty
        case noNote(after: String)
        case unknownAudience(String)
        case tooLong(Int)

        public var description: String {
            switch self {
            case .empty: return "there is no audience and no note."
            case .noNote(let word): return "there is no note after \"\(word)\"."
            case .unknownAudience(let word):
                return
                    """
                    \"\(word)\" is not a state code or \"all\" (a state is its code in capitals, like TX, or its \
                    full name; everyone is \"all\").
                    """
            case .tooLong(let n): return "the note is \(n) characters; the most is \(BroadcastDraft.maxLength)."
            }
        }
    }

    /// `/broadcast <all | code | state name> <note>` as one line.
    public static func parse(_ payload: String, states: [StateInfo]) -> Result<BroadcastDraft, Problem> {
        let words = payload.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return .failure(.empty) }
        guard words.count >= 2 else { return .failure(.noNote(after: first)) }
        for n in [3, 2, 1] where words.count > n {
            let audience = words.prefix(n).joined(separator: " ")
            // In a chat line a two-letter state must be typed in capitals: "Hi everyone" and "in 10
            // minutes" are words, not Hawaii and Indiana.
            guard let code = audienceCode(audience, states: states, fullNameOnly: n > 1, codeInCapitals: true) else {
                continue
            }
            return make(stateCode: code.isEmpty ? nil : code, text: words.dropFirst(n).joined(separator: " "))
        }
        return .failure(.unknownAudience(first))
    }

    /// The command line's `--to` and `--text`, checked alike.
    public static func make(to audience: String, text: String, states: [StateInfo]) -> Result<BroadcastDraft, Problem> {
        guard
            let code = audienceCode(audience.trimmingCharacters(in: .whitespaces), states: states, fullNameOnly: false)
        else {
            return .failure(.unknownAudience(audience))
        }
        return make(stateCode: code.isEmpty ? nil : code, text: text)
    }

    static func make(stateCode: String?, text: String) -> Result<BroadcastDraft, Problem> {
        let note = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !note.isEmpty else { return .failure(.noNote(after: stateCode ?? "all")) }
        guard note.count <= maxLength else { return .failure(.tooLong(note.count)) }
        return .success(BroadcastDraft(stateCode: stateCode, text: note))
    }

    /// "" for everyone, a state code, or nil when the words name neither.
    static func audienceCode(_ words: String, states: [StateInfo], fullNameOnly: Bool, codeInCapitals: Bool = false)
        -> String?
    {
        if words.lowercased() == "all" { return "" }
        if !fullNameOnly, words.count == 2, !codeInCapitals || words == words.uppercased(),
            let s = states.first(where: { $0.code == words.uppercased() })
        {
            return s.code
        }
        if let s = StateMatcher.match(words, in: states), StateMatcher.isFullName(words, of: s) { return s.code }
        return nil
    }
}
