import Foundation

// The screens of friend challenges (see `Challenge`, `Dialogue+Challenges`).

/// Before a challenge's first question: whose challenge (nil: the learner's own, to play first).
public struct ChallengeIntroView: Equatable, Sendable {
    public var opponent: String?
    public var questions: Int
}

/// A challenge's link, ready to forward.
public struct ChallengeReadyView: Equatable, Sendable {
    public var token: String
    public var score: Int
    public var total: Int
    public var botUsername: String
    /// The maker opened their own link.
    public var own: Bool
    public var reward: SessionReward? = nil
    /// Also sent to this friend ("Challenge Maya back").
    public var sentTo: String? = nil

    public var link: String { Self.link(botUsername: botUsername, token: token) }

    /// The deep link a friend opens: `/start c<token>` to this bot.
    public static func link(botUsername: String, token: String) -> String {
        "https://t.me/\(botUsername)?start=\(Challenge.payloadPrefix)\(token)"
    }

    /// Telegram's share sheet with the link and a line to go with it.
    public static func shareURL(botUsername: String, token: String) -> String {
        let link = Self.link(botUsername: botUsername, token: token)
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let text = "Beat my score on 10 driving-test questions 🚗"
        return "https://t.me/share/url?url=\(link.addingPercentEncoding(withAllowedCharacters: allowed) ?? link)"
            + "&text=\(text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
    }
}

/// A friend's result beside the challenger's, and the questions where they differed.
public struct ChallengeResultView: Equatable, Sendable {
    /// How many of the questions two friends differed on are listed: all a challenge can have.
    public static let differencesShown = Challenge.length

    public struct Difference: Equatable, Sendable {
        public var question: String
        public var youRight: Bool
        public var correctAnswer: String
        /// The sign the question showed (its name): the recap has no picture, and "What does this
        /// sign mean?" alone says nothing.
        public var sign: String? = nil

        public init(question: String, youRight: Bool, correctAnswer: String, sign: String? = nil) {
            self.question = question
            self.youRight = youRight
            self.correctAnswer = correctAnswer
            self.sign = sign
        }
    }
    public var opponent: String
    public var theirScore: Int
    public var yourScore: Int
    public var total: Int
    public var differed: [Difference]
    public var reward: SessionReward? = nil
    /// New to the bot (no state yet): the next step is picking one.
    public var newcomer: Bool = false
    /// How many questions they differed on (`differed` lists up to `differencesShown`).
    public var differedCount: Int = 0
    /// They were friends before this challenge ("friends now" would be news to nobody).
    public var alreadyFriends: Bool = false
}

/// To the challenger: a friend played their challenge.
public struct ChallengePlayedView: Equatable, Sendable {
    public var friend: String
    public var friendScore: Int
    public var yourScore: Int
    public var total: Int
    /// Where the two differed, from the challenger's side (`youRight` is the challenger's).
    public var differed: [ChallengeResultView.Difference] = []
    /// How many they differed on (`differed` lists up to `differencesShown`).
    public var differedCount: Int = 0

    public init(
        friend: String, friendScore: Int, yourScore: Int, total: Int,
        differed: [ChallengeResultView.Difference] = [], differedCount: Int = 0
    ) {
        self.friend = friend
        self.friendScore = friendScore
        self.yourScore = yourScore
        self.total = total
        self.differed = differed
        self.differedCount = differedCount
    }
}
