import TutorCore

// The friends' league as the templates say it (Home, Progress, Friends; partial `league_status`).

/// "2nd of 5 · tied with Ava · Jordan is 40 XP ahead".
struct LeagueLineContext {
    var place: String
    var of: Int
    var xp: Int
    /// First, and nobody on the same XP.
    var inLead: Bool
    var tied: Bool
    /// "Ava", "Ava and Kai".
    var tiedWith: String
    var nobodyScored: Bool
    var hasAhead: Bool
    var aheadName: String
    var aheadBy: Int
    /// More than three quizzes behind a friend who plays the same Daily 5, today's not yet played:
    /// the week's XP is out of reach, a Daily 5 score is not.
    var farBehind: Bool
    var hasHidden: Bool
    var hiddenFriends: String

    init(_ l: LeagueLine) {
        place = Prompts.ordinal(l.place)
        of = l.of
        xp = l.xp
        tied = !l.tiedWith.isEmpty
        tiedWith = LastWeekContext.list(l.tiedWith)
        nobodyScored = l.nobodyScored
        hasAhead = l.aheadName != nil
        aheadName = l.aheadName ?? ""
        aheadBy = l.aheadBy
        farBehind = hasAhead && l.aheadBy > 300 && l.dailyCanSettleIt
        inLead = !hasAhead && !tied && !nobodyScored
        hasHidden = l.hiddenFriends > 0
        hiddenFriends = l.hiddenFriends == 1 ? "1 friend hides" : "\(l.hiddenFriends) friends hide"
    }
}

/// The league, or why there is none, for Progress and the Friends screen.
struct LeagueStandingContext {
    var line: LeagueLineContext?
    var noFriends = false
    var youHide = false
    var friendsHidden = false
    /// "Your friend hides" / "Your 3 friends hide".
    var hidingFriends = ""

    init(_ s: LeagueStanding) {
        switch s {
        case .ranked(let l): line = LeagueLineContext(l)
        case .noFriends: noFriends = true
        case .youHide: youHide = true
        case .friendsHidden(let n):
            friendsHidden = true
            hidingFriends = n == 1 ? "Your friend here hides" : "Your \(n) friends here hide"
        }
    }
}

/// "🏆 Jordan won last week with 420 XP." / "🏆 You won last week with 420 XP!"
struct LastWeekContext {
    var youAlone: Bool
    var youTied: Bool
    var oneFriend: Bool
    var friendsTied: Bool
    var names: String
    var xp: Int

    init(_ w: LeagueWeekWinners) {
        youAlone = w.you && w.friends.isEmpty
        youTied = w.you && !w.friends.isEmpty
        oneFriend = !w.you && w.friends.count == 1
        friendsTied = !w.you && w.friends.count > 1
        names = Self.list(w.friends)
        xp = w.xp
    }

    /// "Ava", "Ava and Jordan", "Ava, Jordan and Kai".
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}

/// "Sunday 9 pm" (when the league week turns over, in the learner's own time zone).
enum LocalWeekTimeText {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    static func text(_ t: LocalWeekTime) -> String {
        weekdays[(t.weekday - 1 + 7) % 7] + " " + Prompts.clock(t.minute)
    }
}

/// One question two friends answered differently, in a challenge's result and in the news the
/// challenger gets (each from their own side).
struct DifferenceContext {
    var question: String
    var youRight: Bool
    var correctAnswer: String
    var sign: String?

    init(_ d: ChallengeResultView.Difference) {
        question = d.question
        youRight = d.youRight
        correctAnswer = d.correctAnswer
        sign = d.sign
    }
}
