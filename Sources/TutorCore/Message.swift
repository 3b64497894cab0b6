import Foundation

/// Short friendly lines for stray input; each has its template line in Prompts/.
public enum Notice: String, CaseIterable, Sendable {
    case didNotCatchThat, staleButton, garbledButton, alreadyAnswered, unsupportedContent
    case editedMessage, tooLong, groupChat, stopped, resumed, stateNotFound, noQuizOpen
}

public struct AnswerOption: Equatable, Sendable {
    public var letter: String
    public var text: String
    public init(letter: String, text: String) { self.letter = letter; self.text = text }
}

public struct StateCardView: Equatable, Sendable {
    public var state: StateInfo
}

public struct HomeView: Equatable, Sendable {
    public var firstName: String
    public var stateName: String
    public var streak: Int
    public var studiedToday: Bool
    public var missedCount: Int
    public var seenCount: Int
    public var totalCount: Int
}

public struct QuestionView: Equatable, Sendable {
    public var number: Int
    public var total: Int
    public var mode: QuizMode
    public var topic: Topic
    public var text: String
    public var options: [AnswerOption]
}

public struct AnsweredView: Equatable, Sendable {
    public var question: QuestionView
    public var chosenLetter: String
    public var correctLetter: String
    public var correctText: String
    public var isCorrect: Bool
    public var explanation: String
    public var source: String
}

public struct ResultsView: Equatable, Sendable {
    public var result: QuizResult
    public var stateName: String?
    public var durationSeconds: Int
    public var missedCount: Int
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
}

public struct SettingsView: Equatable, Sendable {
    public var stateName: String?
}

/// Everything the bot can say. Each case is rendered by one template in Prompts/<locale>/.
public enum Message: Equatable, Sendable {
    case welcome(firstName: String)
    case welcomeBack(firstName: String)
    case pickState
    case typeState
    case stateCard(StateCardView)
    case home(HomeView)
    case question(QuestionView)
    case answered(AnsweredView)
    case results(ResultsView)
    case reviewEmpty
    case pickTopic
    case comingSoon
    case progress(ProgressView)
    case settings(SettingsView)
    case help
    case about
    case notice(Notice)
}
