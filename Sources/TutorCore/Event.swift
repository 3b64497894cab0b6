import Foundation

/// The Telegram user behind an event, as far as tutoring needs to know them.
public struct Sender: Equatable, Sendable {
    public var userID: Int64
    public var firstName: String
    public var languageCode: String?

    public init(userID: Int64, firstName: String, languageCode: String? = nil) {
        self.userID = userID
        self.firstName = firstName
        self.languageCode = languageCode
    }
}

public enum Command: String, CaseIterable, Sendable {
    case start, home, quiz, test, topics, review, cards, signs, progress, settings, help, about, stop

    /// The commands registered with setMyCommands, in menu order (descriptions live in Prompts/).
    public static let menu: [Command] = [
        .start, .home, .quiz, .test, .topics, .review, .cards, .signs, .progress, .settings, .help, .about, .stop,
    ]
}

/// What happened in a chat, parsed from a Telegram update (named for what happened, not what to do).
public enum Event: Equatable, Sendable {
    case commandSent(Command, payload: String?)
    /// A slash command we do not have (`/foo`): answered like unclear text.
    case unknownCommandSent(String)
    case textSent(String)
    /// A button press; `action` is nil when the callback data could not be decoded (garbled or forged).
    case buttonTapped(callbackID: String, action: ButtonAction?, messageID: Int64)
    /// A sticker, photo, voice note, … where the bot expects text or a button.
    case unsupportedContentSent(kind: String)
    case messageEdited
    case botBlocked
    case botUnblocked
    /// A timer the reducer set earlier came due (a timed-challenge question ran out of time).
    case timerFired(key: String)
    /// The learner's planned reminder time has come (the reducer decides whether to send it).
    case nudgeDue
}

/// Menu destinations a button can lead to.
public enum MenuItem: String, CaseIterable, Sendable {
    case home = "h"
    case quickQuiz = "qq"
    case topics = "tp"
    case review = "rv"
    case progress = "pg"
    case settings = "st"
    case help = "hl"
    case about = "ab"
    case changeState = "cs"
    case otherState = "os"
    case tryAnother = "ta"
    case resume = "rs"
    case practiceTest = "pt"
    case timedChallenge = "tc"
    case toggleReveal = "tr"
    case toggleNudges = "nt"
    case deleteData = "dd"
    case confirmDelete = "dy"
    case flashcards = "fc"
    case gallery = "sg"
    case livesChallenge = "lc"
    case toggleFourButtons = "fb"
    case doneForNow = "dn"
    case messagesOn = "mo"
    case leaveDaily = "ld"
    case learn = "le"
    case testOut = "to"
    case challenge = "cf"
    case friends = "fr"
    case toggleHideFromFriends = "hf"
    case daily = "dl"
    /// "⚔️ Challenge Maya back": whom to is kept in the session, never in the button's data.
    case challengeBack = "cb"
}

/// What a button does, encoded compactly into Telegram's 64-byte callback_data and decoded
/// strictly on the way back (callback data can be forged).
public enum ButtonAction: Equatable, Sendable {
    case answer(quiz: Int, question: Int, option: Int)
    case next(quiz: Int, question: Int)
    case menu(MenuItem)
    case pickState(String)
    case pickTopic(Topic)
    /// Start practice test 1-4, or 0 for a random one.
    case startTest(Int)
    /// Page `page` of the misses of finished quiz `quiz`.
    case missesPage(quiz: Int, page: Int)
    /// Reminder time, minutes after local midnight (one of `Nudges.choices`).
    case setNudgeTime(Int)
    /// Pick the learner's zone among their state's (index into `StateInfo.timeZones`).
    case setZone(Int)
    /// Flashcards: reveal the answer of card run `seq`'s current card, or rate it.
    case showCard(seq: Int, index: Int)
    case rateCard(seq: Int, index: Int, rating: Rating)
    /// Road-sign gallery: a group, one sign of it, or a drill on it.
    case signGroup(SignGroup)
    case signAt(SignGroup, Int)
    case quizSigns(SignGroup)
    /// Confirmed: switch to this state although a practice test is open (it is kept for its state).
    case switchState(String)
    /// Lessons: open one (from a topic's list), the next card of lesson run `seq` after card `card`,
    /// and a topic's list of lessons.
    case openLesson(String)
    case nextLessonCard(seq: Int, card: Int)
    case topicLessons(Topic)
    /// The Friends screen's Remove (asks first) and its confirmation, by the short key the
    /// session keeps for that friend (never a chat id or a list position in a button).
    case removeFriend(String)
    case unfriend(String)
    /// "⚔️ Challenge Riley" on Friends: a friend already added (the same session key as Remove).
    case challengeFriend(String)
    /// Under an answer to a typed question (`AskRef.raw`): quiz on it, show the other card, 👍 / 👎.
    case askQuiz(String)
    case askShow(String)
    case askVote(String, helpful: Bool)

    /// Bumped when the format changes, so buttons from an older format read as stale, not as something else.
    static let version = "1"

    public var callbackData: String {
        let body: String
        switch self {
        case .answer(let q, let i, let o): body = "a:\(q):\(i):\(o)"
        case .next(let q, let i): body = "n:\(q):\(i)"
        case .menu(let m): body = "m:\(m.rawValue)"
        case .pickState(let code): body = "s:\(code)"
        case .pickTopic(let t): body = "t:\(t.rawValue)"
        case .startTest(let n): body = "x:\(n)"
        case .missesPage(let q, let p): body = "p:\(q):\(p)"
        case .setNudgeTime(let m): body = "r:\(m)"
        case .setZone(let i): body = "z:\(i)"
        case .showCard(let s, let i): body = "c:\(s):\(i)"
        case .rateCard(let s, let i, let r): body = "k:\(s):\(i):\(r.rawValue)"
        case .signGroup(let g): body = "g:\(g.rawValue)"
        case .signAt(let g, let i): body = "i:\(g.rawValue):\(i)"
        case .quizSigns(let g): body = "q:\(g.rawValue)"
        case .switchState(let code): body = "w:\(code)"
        case .openLesson(let id): body = "l:\(id)"
        case .nextLessonCard(let s, let c): body = "e:\(s):\(c)"
        case .topicLessons(let t): body = "o:\(t.rawValue)"
        case .removeFriend(let key): body = "f:\(key)"
        case .unfriend(let key): body = "u:\(key)"
        case .challengeFriend(let key): body = "h:\(key)"
        case .askQuiz(let ref): body = "y:\(ref)"
        case .askShow(let ref): body = "j:\(ref)"
        case .askVote(let ref, let helpful): body = "v:\(helpful ? 1 : 0):\(ref)"
        }
        return ButtonAction.version + body
    }

    /// A bank id as `AskRef` writes it (`l-mo-4-4`, `u-sig-004`, `sign:stop`, `state:MO`).
    static func isAskRef(_ ref: String) -> Bool {
        (3...50).contains(ref.count)
            && ref.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ":" || $0 == "_") }
    }

    public init?(callbackData data: String) {
        guard data.utf8.count <= 64, data.hasPrefix(ButtonAction.version) else { return nil }
        let parts = data.dropFirst().split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func int(_ s: String) -> Int? { s.count <= 9 ? Int(s).flatMap { $0 >= 0 ? $0 : nil } : nil }
        switch (parts.first, parts.count) {
        case ("a", 4):
            guard let q = int(parts[1]), let i = int(parts[2]), let o = int(parts[3]) else { return nil }
            self = .answer(quiz: q, question: i, option: o)
        case ("n", 3):
            guard let q = int(parts[1]), let i = int(parts[2]) else { return nil }
            self = .next(quiz: q, question: i)
        case ("m", 2):
            guard let m = MenuItem(rawValue: parts[1]) else { return nil }
            self = .menu(m)
        case ("s", 2), ("w", 2):
            guard parts[1].count == 2, parts[1].allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
            self = parts[0] == "s" ? .pickState(parts[1]) : .switchState(parts[1])
        case ("t", 2):
            guard let t = Topic(rawValue: parts[1]) else { return nil }
            self = .pickTopic(t)
        case ("x", 2):
            guard let n = int(parts[1]), n <= ExamBuilder.fixedTests else { return nil }
            self = .startTest(n)
        case ("r", 2):
            guard let m = int(parts[1]), Nudges.choices.contains(m) else { return nil }
            self = .setNudgeTime(m)
        case ("z", 2):
            guard let i = int(parts[1]), i < 8 else { return nil }
            self = .setZone(i)
        case ("c", 3):
            guard let q = int(parts[1]), let i = int(parts[2]) else { return nil }
            self = .showCard(seq: q, index: i)
        case ("k", 4):
            guard let q = int(parts[1]), let i = int(parts[2]), let r = int(parts[3]).flatMap(Rating.init(rawValue:))
            else { return nil }
            self = .rateCard(seq: q, index: i, rating: r)
        case ("g", 2):
            guard let g = SignGroup(rawValue: parts[1]) else { return nil }
            self = .signGroup(g)
        case ("i", 3):
            guard let g = SignGroup(rawValue: parts[1]), let i = int(parts[2]) else { return nil }
            self = .signAt(g, i)
        case ("q", 2):
            guard let g = SignGroup(rawValue: parts[1]) else { return nil }
            self = .quizSigns(g)
        case ("p", 3):
            guard let q = int(parts[1]), let p = int(parts[2]) else { return nil }
            self = .missesPage(quiz: q, page: p)
        case ("l", 2):
            guard (3...50).contains(parts[1].count),
                parts[1].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
            else { return nil }
            self = .openLesson(parts[1])
        case ("e", 3):
            guard let s = int(parts[1]), let c = int(parts[2]) else { return nil }
            self = .nextLessonCard(seq: s, card: c)
        case ("o", 2):
            guard let t = Topic(rawValue: parts[1]) else { return nil }
            self = .topicLessons(t)
        case ("y", 2...), ("j", 2...):
            let ref = parts[1...].joined(separator: ":")
            guard Self.isAskRef(ref) else { return nil }
            self = parts[0] == "y" ? .askQuiz(ref) : .askShow(ref)
        case ("v", 3...):
            let ref = parts[2...].joined(separator: ":")
            guard ["0", "1"].contains(parts[1]), Self.isAskRef(ref) else { return nil }
            self = .askVote(ref, helpful: parts[1] == "1")
        case ("f", 2), ("u", 2), ("h", 2):
            guard (4...12).contains(parts[1].count),
                parts[1].allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
            else { return nil }
            switch parts[0] {
            case "f": self = .removeFriend(parts[1])
            case "u": self = .unfriend(parts[1])
            default: self = .challengeFriend(parts[1])
            }
        default:
            return nil
        }
    }
}
