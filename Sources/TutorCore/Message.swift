import Foundation

/// Short friendly lines for stray input; each has its template line in Prompts/.
public enum Notice: String, CaseIterable, Sendable {
    case didNotCatchThat, staleButton, garbledButton, alreadyAnswered, unsupportedContent
    case editedMessage, tooLong, groupChat, stopped, resumed, stateNotFound, timeRanOut
    case askedAQuestion  // stray text that reads as a question ("whats the speed limit…"): where to learn it
    /// Stray text while a question waits: it is just above, not sent again.
    case answerAbove
    /// A question typed during a practice test: answered after it.
    case askAfterTheTest
    /// "what does that mean" before the question is answered: the explanation comes after.
    case explainAfterAnswer
    /// After a question typed at an answered quiz question: Next is a tap away.
    case backToTheQuiz
    /// A question typed before any state was picked: answered once the state is known.
    case askAfterTheState
    /// "im in texas" typed by a Texas learner.
    case alreadyYourState
    /// 👍 / 👎 under an answer, tapped.
    case thanksForVote
    /// A letter typed at a question that has no options.
    case typeTheAnswer
    /// The learner's update was dropped because their rows could not be loaded or saved.
    case ourFault
    /// A reminder time typed inside quiet hours (9 pm - 8 am).
    case reminderQuietHours
    /// A challenge link that is mangled, forged or no longer exists.
    case challengeLinkBroken
    /// A challenge link older than a week.
    case challengeExpired
    /// A challenge this learner has played already (once per friend).
    case challengeAlreadyPlayed
    /// Today's daily challenge is already played.
    case dailyDone
    /// Settings' league switch, said back: hidden (both ways), or shown again.
    case hiddenFromLeague, shownInLeague
    /// A Remove (or its "Yes") for a friend who is off the list already: the list is shown as it is.
    case friendAlreadyGone
    /// Daily 5 tapped again mid-play: said before the question it goes back to.
    case dailyResumed
    /// A new quiz started over one left part-way: said before its first question (it ended
    /// silently, and a play-tester thought their answers were lost).
    case openQuizEnded
    /// An option letter typed under an explanation: the next question isn't shown yet.
    case tapNextFirst
    /// Another quiz asked for while today's Daily 5 is open: it is one try a day, so ask first.
    case leaveDailyFirst
    /// "this is boring lol", "bruh" on a menu screen: a game offered, not the whole home again.
    case soundsBored
    /// "thx", "thanks!!" on a menu screen: a short "anytime", not "didn't catch that" and the menu again.
    case youreWelcome
    /// "ok cool", "lol", "k" on a menu screen: a nod, nothing more.
    case acknowledged

    /// Answers to input that changed nothing (a sticker, an edit, text that is no answer): a chat
    /// whose replies are still queued gets no more of these (see `Bot.ChatReducer`).
    public var answersStrayInput: Bool {
        switch self {
        case .didNotCatchThat, .askedAQuestion, .unsupportedContent, .editedMessage, .tooLong, .answerAbove,
            .typeTheAnswer,
            .tapNextFirst, .soundsBored, .youreWelcome, .acknowledged:
            return true
        default: return false
        }
    }
}

/// What a finished session earned: shown at the end of every quiz, test and card session.
public struct SessionReward: Equatable, Sendable {
    public var xpEarned: Int
    /// Questions answered today, all of them: "Today 30 (goal 20 ✅)". (It was capped at the goal,
    /// and a teen who had answered 30 read "20/20" as the bot not counting the last ten.)
    public var answeredToday: Int
    public var goal: Int
    public var streak: Int

    public init(xpEarned: Int, answeredToday: Int, goal: Int = Learner.dailyGoal, streak: Int) {
        self.xpEarned = xpEarned
        self.answeredToday = answeredToday
        self.goal = goal
        self.streak = streak
    }
}

public struct AnswerOption: Equatable, Sendable {
    public var letter: String
    public var text: String
    public init(letter: String, text: String) {
        self.letter = letter
        self.text = text
    }
}

public struct StateCardView: Equatable, Sendable {
    public var state: StateInfo
    /// Questions in the state's own file (0: only the rules every state shares are covered yet).
    public var ownQuestions: Int = 0
    /// The conditions on the permit age (`state-rules.json`), e.g. Colorado's driver-ed routes.
    public var permitAgeDetail: String? = nil
}

public struct FlashcardView: Equatable, Sendable {
    public var number: Int
    public var total: Int
    public var topic: Topic
    public var question: String
    /// The back of the card: nil while only the front shows.
    public var answer: String?
    public var explanation: String?
}

public struct FlashcardSummary: Equatable, Sendable {
    public var reviewed: Int
    public var dueTomorrow: Int
    public var dueThisWeek: Int
    public var reward: SessionReward? = nil
    /// The learner left with cards still to go ("Done for now").
    public var leftEarly: Bool = false
    /// Cards due now (not "all caught up" while there are some).
    public var dueNow: Int = 0
}

public struct SignCardView: Equatable, Sendable {
    public var sign: SignInfo
    public var number: Int
    public var total: Int
}

public struct HomeView: Equatable, Sendable {
    public var firstName: String
    public var stateName: String
    public var streak: Int
    public var studiedToday: Bool
    public var missedCount: Int
    public var seenCount: Int
    public var totalCount: Int
    public var xp: Int = 0
    public var answeredToday: Int = 0
    public var dailyGoal: Int = Learner.dailyGoal
    /// A streak of this many days ended since the learner last studied (told kindly until they study).
    public var streakEnded: Int? = nil
    /// Lessons finished of the learner's path (every topic's and their state's).
    public var lessonsDone: Int = 0
    public var lessonsTotal: Int = 0
    /// This week's place among friends (nil: no friends, hidden, or not read for this event).
    public var league: LeagueLine? = nil
    /// Last week's league winner, on the new week's first day.
    public var lastWeek: LeagueWeekWinners? = nil
    /// Today's Daily 5, left part-way (questions answered of its five): Home warns that starting
    /// anything else ends it. (A play-tester started a quiz from Home and lost it without warning.)
    public var dailyWaiting: Int? = nil
}

public struct QuestionView: Equatable, Sendable {
    public var number: Int
    public var total: Int
    public var mode: QuizMode
    public var topic: Topic
    public var text: String
    public var options: [AnswerOption]
    /// Practice tests: the section this question belongs to, when the test has several.
    public var sectionName: String? = nil
    /// Timed challenge: the time budget shown with the question.
    public var secondsPerQuestion: Int? = nil
    /// A fill-in question: the learner types the answer (no option buttons).
    public var typeIn: Bool = false
    /// Lives challenge: lives left.
    public var lives: Int? = nil
}

public struct AnsweredView: Equatable, Sendable {
    public var question: QuestionView
    public var chosenLetter: String
    public var correctLetter: String
    public var correctText: String
    public var isCorrect: Bool
    public var explanation: String
    public var source: String
    /// The time budget ran out before an answer came.
    public var timedOut: Bool = false
    /// What the learner typed, for a fill-in question.
    public var typed: String? = nil
    /// "idk": the learner asked for the answer (it counts as a miss, and is said so kindly).
    public var skipped: Bool = false
    /// Universal questions cite the learner's own handbook and the topic's chapter rather than a
    /// standard's section code or another state's manual.
    public var handbook: String? = nil
    /// A question every state asks: with no state picked yet it cites "your state's handbook", not
    /// the standard it was written from (a learner read "MUTCD 11th ed. (2023), … (R3-11)").
    public var universal: Bool = false
    /// The extra XP this answer earned for being a hard question (`XP.hardBonus`), 0 otherwise:
    /// /help promises it, and nothing else tells a learner which questions are hard.
    public var hardBonusXP: Int = 0
    /// A typed answer taken as right despite a typo: the spelling is shown, so the slip isn't learned.
    public var typo: Bool = false
}

public struct ResultsView: Equatable, Sendable {
    public var result: QuizResult
    public var stateName: String?
    public var durationSeconds: Int
    public var missedCount: Int
    /// Practice tests: the time limit in minutes, for "time ran out after …".
    public var timeLimitMinutes: Int? = nil
    public var readiness: ReadinessSummary? = nil
    public var reward: SessionReward? = nil
    /// Think Fast: average seconds per answer, and the best score before this one.
    public var averageSeconds: Double? = nil
    public var previousBest: Int? = nil
    /// 3 lives: the lives left at the end (0: the run ended on its third miss).
    public var livesLeft: Int? = nil
}

public struct PickTestView: Equatable, Sendable {
    public var state: StateInfo
    /// Best score so far on tests 1-4 (index 0 = test 1), nil when not taken.
    public var best: [QuizResult?]
    /// The first try at each (index 0 = test 1), when it is kept and scored less than the best:
    /// a re-taker's "best 20/20" was a memorised retake, the first try 10/20.
    public var firstTry: [QuizResult?] = []
    /// The fixed test open part-way (its number and questions answered), shown as "in progress".
    public var open: OpenTest? = nil
    /// Settings' "answers shown as you go": the test list says so instead of "revealed at the end".
    public var revealAsYouGo = false
    /// About how many of a test's questions come from lessons not read yet (0: the path is done).
    public var untaught = 0

    public struct OpenTest: Equatable, Sendable {
        public var number: Int
        public var answered: Int
    }
}

public struct MissItem: Equatable, Sendable {
    public var number: Int
    public var question: String
    public var correctAnswer: String
    public var explanation: String
    /// What the learner picked or typed; nil when time ran out first.
    public var yourAnswer: String? = nil
    /// The sign the question showed, by name (a list can't carry the pictures).
    public var signName: String? = nil
}

public struct MissesView: Equatable, Sendable {
    public var items: [MissItem]
    public var page: Int
    public var pageCount: Int
}

public struct TopicMastery: Equatable, Sendable {
    public var topic: Topic
    public var mastered: Int
    public var total: Int
    public var percent: Int { total == 0 ? 0 : Int((Double(mastered) * 100 / Double(total)).rounded()) }
}

public struct ProgressView: Equatable, Sendable {
    public var stateName: String
    public var mastery: [TopicMastery]
    public var seenCount: Int
    public var totalCount: Int
    public var streak: Int
    public var bestStreak: Int
    public var recent: [QuizResult]
    /// The chance of passing the real test now and "Ready to test" (nil without a state).
    public var readiness: ReadinessSummary? = nil
    public var xp: Int = 0
    public var badges: [Badge] = []
    public var cardsDue: Int = 0
    /// Streak freezes banked (each covers one missed day).
    public var freezes: Int = 0
    /// This week's league, or why there is none (nil: friends not read for this event).
    public var league: LeagueStanding? = nil
}

public struct SettingsView: Equatable, Sendable {
    public var stateName: String?
    public var revealAnswersAsYouGo: Bool = false
    public var nudgesOn: Bool = true
    public var nudgeMinute: Int = Nudges.defaultMinute
    public var paused: Bool = false
    public var timeZone: String? = nil
    public var fourButtonCards: Bool = false
    /// `/stop`: every message is off, reminders included, until they are turned back on.
    public var stopped: Bool = false
    public var hideFromFriends: Bool = false
}

public struct NudgeView: Equatable, Sendable {
    public var firstName: String
    public var streak: Int
    public var missedCount: Int
    public var cardsDue: Int = 0
    /// Today's Daily 5 not played yet: the reminder invites to it.
    public var dailyWaiting: Bool = false
}

/// Everything the bot can say. Each case is rendered by one template in Prompts/<locale>/.
public enum Message: Equatable, Sendable {
    case welcome(firstName: String)
    case welcomeBack(firstName: String)
    case pickState
    case typeState
    /// "Oklahoma — is that right?": a short or everyday word typed where a state was expected.
    case confirmState(StateInfo)
    /// Switching state: typed ("im in pennsylvania"), or in the middle of a practice test (`test`:
    /// the test is kept for its own state).
    case confirmSwitch(from: String, to: String, test: QuizMode?)
    case stateCard(StateCardView)
    case home(HomeView)
    case question(QuestionView)
    case answered(AnsweredView)
    case results(ResultsView)
    case challengeIntro(ChallengeIntroView)
    case challengeReady(ChallengeReadyView)
    case challengeResult(ChallengeResultView)
    case challengePlayed(ChallengePlayedView)
    /// To a friend: they were challenged back (the link is the message's button).
    case challengedBack(friend: String, questions: Int, back: Bool)
    case friends(FriendsView)
    case confirmUnfriend(ConfirmUnfriendView)
    case dailyResult(DailyResultView)
    /// Before today's five: what it is, and that it is one try.
    case dailyIntro(stateName: String)
    /// A Daily 5 ended by starting another quiz: how far it got.
    case dailyClosed(answered: Int, total: Int)
    case reviewEmpty
    case pickTest(PickTestView)
    /// A practice-test answer locked in without revealing it (answers come at the end).
    case lockedIn(AnsweredView)
    case misses(MissesView)
    case testUnavailable
    case nudge(NudgeView)
    case flashcard(FlashcardView)
    case flashcardsDone(FlashcardSummary)
    case pickSignGroup
    case signCard(SignCardView)
    case badgeEarned(Badge)
    case levelUp(level: Int)
    case confirmDelete
    case dataDeleted
    case pickTopic
    case progress(ProgressView)
    case settings(SettingsView)
    case help
    case about
    case notice(Notice)
    case lessonCard(LessonCardView)
    /// A typed question answered with the card that answers it.
    case askAnswer(AskAnswerView)
    /// A typed question nothing in the banks answers: one friendly line, the nearest topics.
    case askDeclined(AskDeclinedView)
    case lessonDone(LessonDoneView)
    case topicLessons(TopicLessonsView)
}
