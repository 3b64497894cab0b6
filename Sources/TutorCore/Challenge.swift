import Foundation

/// A friend challenge: ten universal questions a learner played, sent to friends as a Telegram
/// deep link (`https://t.me/<bot>?start=c<token>`); each friend plays the same ten in the same
/// order, once, within `lifetime`, and both see the result side by side.
///
/// The token is the only thing in the link: 22 base64url characters of 128 bits from the system's
/// random generator (made at the edge, never from the reducer's seed: a link must not be
/// guessable), never a chat or user id.
public struct Challenge: Codable, Equatable, Sendable {
    public var token: String
    public var creatorChatID: Int64
    /// First name only (trimmed): all a friend ever sees of the challenger.
    public var creatorName: String
    public var questionIDs: [String]
    /// The challenger's answer to each question, right or not.
    public var creatorCorrect: [Bool]
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        token: String, creatorChatID: Int64, creatorName: String, questionIDs: [String], creatorCorrect: [Bool],
        createdAt: Date, expiresAt: Date
    ) {
        self.token = token
        self.creatorChatID = creatorChatID
        self.creatorName = creatorName
        self.questionIDs = questionIDs
        self.creatorCorrect = creatorCorrect
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public var creatorScore: Int { creatorCorrect.filter { $0 }.count }

    /// How many questions a challenge asks.
    public static let length = 10
    /// A link works this long.
    public static let lifetime: TimeInterval = 7 * 86_400
    /// `/start` payloads that are challenges: "c" and the token.
    public static let payloadPrefix = "c"
    public static let tokenLength = 22

    /// The token of a `/start` payload shaped like a challenge (`c` + 22 base64url characters), or
    /// nil: a state code ("TX"), garbage, or a forged link of another shape.
    public static func token(fromPayload payload: String?) -> String? {
        guard let payload, payload.utf8.count == 1 + tokenLength, payload.hasPrefix(payloadPrefix) else { return nil }
        let token = payload.dropFirst()
        guard token.utf8.allSatisfy({ isBase64URL($0) }) else { return nil }
        return String(token)
    }

    /// Whether `payload` looks like a challenge link at all (starts with "c" and is long): a
    /// mangled one gets "that link didn't work", not the state picker's "which state is that?".
    public static func looksLikeChallenge(_ payload: String?) -> Bool {
        guard let payload else { return false }
        return payload.hasPrefix(payloadPrefix) && payload.utf8.count > 3
    }

    static func isBase64URL(_ b: UInt8) -> Bool {
        (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || (b >= 48 && b <= 57) || b == 45 || b == 95
    }

    /// 128 random bits as 22 base64url characters.
    public static func newToken<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(tokenLength)
        var bits = (generator.next() as UInt64, generator.next() as UInt64)
        for i in 0..<tokenLength {
            // 22 × 6 = 132 bits drawn from 128: the last character carries 2 bits and zeros.
            let index: Int
            if i < 10 {
                index = Int(bits.0 & 63)
                bits.0 >>= 6
            } else if i == 10 {
                index = Int(bits.0 & 15) | Int((bits.1 & 3) << 4)
                bits.1 >>= 2
            } else {
                index = Int(bits.1 & 63)
                bits.1 >>= 6
            }
            out.append(alphabet[index])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The ten questions of a new challenge: universal multiple-choice ones (friends in different
    /// states can play; no typed answers), none the challenger's state leaves out, one topic at most
    /// twice, drawn with the reducer's seed.
    static func pickQuestions(banks: Banks, excluding excluded: Set<String>, random: inout SeededRandom) -> [Question] {
        let candidates = banks.universal.filter {
            $0.kind != .fillIn && !excluded.contains($0.id) && $0.answers.count >= 2
        }
        var perTopic: [Topic: Int] = [:]
        var picked: [Question] = []
        for q in candidates.shuffled(using: &random) where perTopic[q.category, default: 0] < 2 {
            picked.append(q)
            perTopic[q.category, default: 0] += 1
            if picked.count == length { break }
        }
        return picked
    }
}

/// What the edge found for a `/start` challenge payload, handed to the reducer like the clock.
public enum ChallengeLookup: Equatable, Sendable {
    /// The challenge, and whether this chat has played it already.
    case found(Challenge, alreadyPlayed: Bool)
    /// No challenge has this token (never made, or deleted with its maker's data).
    case notFound
}
