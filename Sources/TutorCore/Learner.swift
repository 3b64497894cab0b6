import Foundation

/// Who a chat belongs to and what they chose; one per private chat.
public struct Learner: Codable, Equatable, Sendable {
    public var chatID: Int64
    public var userID: Int64
    public var firstName: String
    public var languageCode: String?
    public var stateCode: String?
    /// Overrides the state's main zone (multi-zone states); nil uses the state's.
    public var timeZone: String?
    /// Practice tests normally reveal answers at the end, as the real test does.
    public var revealAnswersAsYouGo: Bool
    /// `/stop`: nothing but replies to the learner's own messages.
    public var stopped: Bool
    /// The learner blocked the bot: never message them until they come back.
    public var blocked: Bool
    /// A group chat: the bot says once that it works in private chats.
    public var isGroup: Bool
    public var joinedAt: Date
    public var lastActiveAt: Date
    public var streak: Streak
    /// Daily study reminders: on/off and the local time (minutes after midnight, default 16:00).
    public var nudgesOn: Bool
    public var nudgeMinute: Int
    public var lastNudgeDay: LocalDay?
    /// Reminders in a row that brought no visit; at `Nudges.pauseAfterIgnored` they pause until the learner is back.
    public var ignoredNudges: Int
    /// When the next reminder is due (UTC); nil when none is planned. Indexed in the store, so
    /// finding who to remind now is a range scan, not a pass over every learner.
    public var nextNudgeAt: Date?
    /// The game layer: celebration, never pressure.
    public var xp: Int = 0
    public var badges: Set<Badge> = []
    public var cardsReviewed: Int = 0
    /// Flashcards with Again/Hard/Good/Easy instead of "Need practice"/"Knew it".
    public var fourButtonCards: Bool = false
    /// Questions answered on `answeredDay` (local), for the daily goal.
    public var answeredToday: Int = 0
    public var answeredDay: LocalDay? = nil
    /// XP earned in the league week starting `xpWeek` (see `League`).
    public var weekXP: Int = 0
    public var xpWeek: LocalDay? = nil
    /// XP of the league week before `xpWeek` (for last week's winner, once a new week began).
    public var prevWeekXP: Int = 0
    /// "Hide me from my friends' league" (Settings).
    public var hideFromFriends: Bool = false
    /// The last day (the state's) the daily challenge was played, and days in a row.
    public var dailyDay: LocalDay? = nil
    public var dailyStreak: Int = 0
    public static let dailyGoal = 20

    public init(
        chatID: Int64, userID: Int64, firstName: String, languageCode: String? = nil,
        stateCode: String? = nil, timeZone: String? = nil, revealAnswersAsYouGo: Bool = false,
        stopped: Bool = false, blocked: Bool = false, isGroup: Bool = false,
        joinedAt: Date, lastActiveAt: Date? = nil, streak: Streak = Streak(),
        nudgesOn: Bool = true, nudgeMinute: Int = Nudges.defaultMinute, lastNudgeDay: LocalDay? = nil,
        ignoredNudges: Int = 0, nextNudgeAt: Date? = nil
    ) {
        self.chatID = chatID
        self.userID = userID
        self.firstName = firstName
        self.languageCode = languageCode
        self.stateCode = stateCode
        self.timeZone = timeZone
        self.revealAnswersAsYouGo = revealAnswersAsYouGo
        self.stopped = stopped
        self.blocked = blocked
        self.isGroup = isGroup
        self.joinedAt = joinedAt
        self.lastActiveAt = lastActiveAt ?? joinedAt
        self.streak = streak
        self.nudgesOn = nudgesOn
        self.nudgeMinute = nudgeMinute
        self.lastNudgeDay = lastNudgeDay
        self.ignoredNudges = ignoredNudges
        self.nextNudgeAt = nextNudgeAt
    }
}

/// What the learner has shown about one question so far.
/// Milestones announced once when earned and listed on Progress.
public enum Badge: String, Codable, CaseIterable, Sendable, Comparable {
    case firstPerfectQuiz, streak7, allTopics80, allFourTests, cards100
    /// Top of the friends' league for a week (with at least one friend in it).
    case leagueWinner
    public static func < (a: Badge, b: Badge) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// XP and levels: points for effort, a little more for hard questions and study days.
public enum XP {
    public static let correct = 10
    public static let hardBonus = 5
    /// The hard-question bonus a right answer to `q` earns (shown on the answer, so it is the same number).
    public static func bonus(for q: Question, correct: Bool) -> Int { correct && q.difficulty == .hard ? hardBonus : 0 }
    public static let attempt = 2
    public static let studyDayBonus = 20
    public static let cardReview = 2
    public static let perLevel = 250
    public static func level(_ xp: Int) -> Int { 1 + xp / perLevel }
}

public struct QuestionStats: Codable, Equatable, Sendable {
    public var seen: Int
    public var correct: Int
    public var lastCorrect: Bool
    public var lastAnsweredAt: Date
    /// Answered wrong and not answered right since: it is in "Review missed".
    public var missed: Bool
    // What readiness reads (see `Knowledge`); nil in rows from before it existed.
    /// The first answer ever given: what the learner knew before this question taught them anything.
    public var firstCorrect: Bool? = nil
    public var firstAnsweredAt: Date? = nil
    /// Probability the learner knew the answer right after the last answer that counted as
    /// evidence (explanation included), when that was, and how many days that memory lasts.
    public var knowledge: Double? = nil
    public var knowledgeAt: Date? = nil
    public var strengthDays: Double? = nil
    /// When a lesson's check first asked it (right after teaching it), if that came before any
    /// other answer: such answers are not first answers (see `Readiness.FirstAnswers`).
    public var taughtAt: Date? = nil

    public init(seen: Int = 0, correct: Int = 0, lastCorrect: Bool = false, lastAnsweredAt: Date, missed: Bool = false)
    {
        self.seen = seen
        self.correct = correct
        self.lastCorrect = lastCorrect
        self.lastAnsweredAt = lastAnsweredAt
        self.missed = missed
    }

    /// Records an answer to `question`: the counts review and mastery read, and the knowledge
    /// estimate readiness reads (an answer given soon after the answer was last shown is
    /// recognition and leaves the estimate alone; see `Knowledge.update`). `unstudied`: what the
    /// learner would know of it unstudied (`Readiness.FirstAnswers.unstudiedKnown`), else a newcomer's.
    /// `taught`: answered right after a lesson taught it (recognition, like an answer just shown):
    /// neither a first answer nor evidence for the knowledge trace.
    public mutating func record(
        correct isCorrect: Bool, at: Date, question: Question, unstudied: Double? = nil, taught: Bool = false
    ) {
        if firstAnsweredAt == nil && !taught {
            firstCorrect = isCorrect
            firstAnsweredAt = at
        }
        if firstAnsweredAt == nil && taught && taughtAt == nil { taughtAt = at }
        if !taught { Knowledge.update(&self, correct: isCorrect, at: at, question: question, unstudied: unstudied) }
        seen += 1
        if isCorrect { correct += 1 }
        lastCorrect = isCorrect
        lastAnsweredAt = at
        missed = !isCorrect
    }
}

/// Which screen the learner last saw, so stray input can show it again.
public enum Screen: String, Codable, Sendable {
    case new, pickingState, typingState, home, quiz, results, progress, settings, help, about, stopped, cards, gallery,
        lesson, friends
}

/// One sign of the gallery: its group and place in it.
public struct GallerySpot: Codable, Equatable, Sendable {
    public var group: SignGroup
    public var index: Int
}

/// Whom "⚔️ Challenge Maya back" goes to: the friend whose challenge was just played.
public struct Rematch: Codable, Equatable, Sendable {
    public var chatID: Int64
    public var name: String
    /// The challenge made for them, once started.
    public var token: String? = nil
    /// Picked on Friends ("Challenge Riley"), not answering their challenge ("… back").
    public var direct: Bool? = nil
}

/// A lesson being read: which card is showing, and whether the learner chose to test out first.
public struct LessonRun: Codable, Equatable, Sendable {
    public var lessonID: String
    /// Never reused within a chat, so a button from an earlier lesson is recognisably stale.
    public var seq: Int
    public var card: Int
    /// Check questions first: 4 of 5 right finishes the lesson without the cards.
    public var testingOut: Bool = false
    /// After a test-out short of the mark: the checks it missed, the only ones asked again after
    /// the cards (the learner has just answered the others, and been told they still count).
    public var recheck: [String]? = nil
    /// …and how many it got right, counted in the lesson's score.
    public var rightWhenTestingOut: Int? = nil

    public init(lessonID: String, seq: Int, card: Int = 0, testingOut: Bool = false) {
        self.lessonID = lessonID
        self.seq = seq
        self.card = card
        self.testingOut = testingOut
    }
}

/// A flashcard session: the cards to go through and whether the current one shows its answer.
public struct FlashcardRun: Codable, Equatable, Sendable {
    /// Never reused within a chat, so a button from an earlier card is recognisably stale.
    public var seq: Int
    public var questionIDs: [String]
    public var index: Int
    public var showingAnswer: Bool
    public var reviewed: Int
    public var xpAtStart: Int? = nil

    public init(seq: Int, questionIDs: [String], index: Int = 0, showingAnswer: Bool = false, reviewed: Int = 0) {
        self.seq = seq
        self.questionIDs = questionIDs
        self.index = index
        self.showingAnswer = showingAnswer
        self.reviewed = reviewed
    }

    public var tag: String { "c\(seq)" }
}

/// Dialogue position of one chat.
public struct Session: Codable, Equatable, Sendable {
    public var screen: Screen
    public var quiz: QuizRun?
    /// Quiz ids are per chat and never reused, so a button from an old quiz is recognisably stale.
    public var nextQuizID: Int
    public var cards: FlashcardRun?
    /// A practice test left open when the learner switched state: it belongs to `parkedState`
    /// and comes back, unchanged, when they switch back.
    public var parkedQuiz: QuizRun? = nil
    public var parkedState: String? = nil
    /// New flashcards started on `newCardsDay` (local), against the daily cap.
    public var newCardsDay: LocalDay? = nil
    public var newCardsToday: Int? = nil
    /// The friend's challenge being played (from its link), for the side-by-side result.
    public var challenge: Challenge? = nil
    /// A lesson being read: it waits behind "Continue" like a quiz (optional: older sessions decode).
    public var lesson: LessonRun? = nil
    /// The challenge being played came from someone already a friend.
    public var challengeFromFriend: Bool? = nil
    /// After playing a friend's challenge: "Challenge them back" sends them the next challenge
    /// made (its token once started), besides the share link.
    public var rematch: Rematch? = nil
    /// Last week's league as first read this week (a friend removed later doesn't rewrite it).
    public var lastWeek: LastWeekSnapshot? = nil
    /// Keys of the Friends screen's Remove buttons, each naming one friend (see `Dialogue+Friends`).
    public var friendKeys: [String: Int64]? = nil
    /// A quiz asked for while today's Daily 5 was open, started if the learner chooses to leave it.
    public var pendingQuiz: QuizMode? = nil
    /// The sign on screen in the gallery, so "next", "back" or a stray word keep the learner there.
    public var gallerySign: GallerySpot? = nil
    /// Today's Daily 5 score, to show again ("you beat 72%…" grows as the state plays).
    public var dailyPlayed: DailyPlayed? = nil
    /// The fixed practice tests finished, by state: only the latest results are kept, and a retake
    /// must stay a retake after its first try is gone (`QuizResult.retake`).
    public var testsTaken: [String: [Int]]? = nil
    /// The state asked about ("New York — is that right?"): a typed "yes" takes it, "no" asks again.
    public var proposedState: String? = nil
    /// A question typed before any state was picked ("can i turn right on red"): answered for
    /// the state as soon as it is picked (`DialogueContext.pendingAsked`), then dropped.
    public var pendingAsk: String? = nil

    public init(screen: Screen = .new, quiz: QuizRun? = nil, nextQuizID: Int = 1, cards: FlashcardRun? = nil) {
        self.screen = screen
        self.quiz = quiz
        self.nextQuizID = nextQuizID
        self.cards = cards
    }
}

/// Everything the reducer knows about one chat.
public struct ChatState: Equatable, Sendable {
    public var learner: Learner
    public var session: Session
    public var progress: [String: QuestionStats]
    /// Most recent last; the store loads the latest `ChatState.recentResultsKept`.
    public var results: [QuizResult]
    /// The spaced-repetition card of every question the learner has met.
    public var cards: [String: FSRSCard]
    /// Lessons the learner finished (read and checked, or tested out of), with when.
    public var lessonsDone: [String: Date] = [:]

    public static let recentResultsKept = 20
    /// The latest results and, before them, the first-try practice tests the pass chance still
    /// reads (`kept`).
    public static let resultsKeptAtMost = recentResultsKept + Readiness.testsConsidered

    /// The results a chat keeps: the latest `recentResultsKept`, and the last
    /// `Readiness.testsConsidered` first-try practice tests even when older. A test repeater's
    /// dozens of retakes must not push out the first tries: they are the pass chance's only
    /// direct sample of questions the learner had not seen, and retakes count for little.
    public static func kept(_ results: [QuizResult]) -> [QuizResult] {
        guard results.count > recentResultsKept else { return results }
        let firstTries = Set(results.filter(\.isFirstTryTest).suffix(Readiness.testsConsidered).map(\.quizID))
        let recent = results.count - recentResultsKept
        return results.enumerated().filter { i, r in i >= recent || firstTries.contains(r.quizID) }.map(\.element)
    }

    public init(
        learner: Learner, session: Session = Session(), progress: [String: QuestionStats] = [:],
        results: [QuizResult] = [],
        cards: [String: FSRSCard] = [:]
    ) {
        self.learner = learner
        self.session = session
        self.progress = progress
        self.results = results
        self.cards = cards
    }

    /// Cards due by `now`, soonest first (only those whose question still exists in `pool`).
    public func dueCards(at now: Date, in pool: Set<String>) -> [String] {
        cards.filter { $0.value.due <= now && pool.contains($0.key) }.sorted { $0.value.due < $1.value.due }.map(\.key)
    }

    /// Questions whose last answer was a miss, the latest first: "Review my misses" right after a
    /// test goes over that test's misses (it served week-old ones first).
    public var missedIDs: [String] {
        progress.filter { $0.value.missed }
            .sorted { ($0.value.lastAnsweredAt, $0.key) > ($1.value.lastAnsweredAt, $1.key) }.map(\.key)
    }
}
