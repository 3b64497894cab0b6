import Foundation
import Mustache
import TutorCore

// MARK: - template contexts (field names are the templates' variable names)

/// The hottest contexts (every question and answer) list their fields by hand, sparing a
/// reflection per render; `PromptsTests` checks each list matches the struct's properties.
protocol TemplateFields {
    /// Template-ready values only: strings, numbers, flags, and dictionaries or arrays of them
    /// (nil optionals left out). `Prompts.tree` hands them to Mustache as they are.
    var fields: [String: Any] { get }
}

struct EmptyContext {}

struct WelcomeContext { var firstName: String }

struct SettingsContext {
    var stateName: String?
    var reveal: Bool
    var nudgesOn: Bool
    var nudgeTime: String
    var paused: Bool
    var timeZone: String?
    var fourButtons: Bool
    var stopped: Bool

    init(_ v: SettingsView, zoneName: (String) -> String) {
        stopped = v.stopped
        fourButtons = v.fourButtonCards
        stateName = v.stateName
        reveal = v.revealAnswersAsYouGo
        nudgesOn = v.nudgesOn
        nudgeTime = Prompts.clock(v.nudgeMinute)
        paused = v.paused
        timeZone = v.timeZone.map(zoneName)
    }
}

struct NudgeContext {
    var firstName: String
    var streak: Int
    var hasStreak: Bool
    var missed: Int
    var hasMissed: Bool
    var cards: Int
    var hasCards: Bool
    var cardsPlural: String
    var minutes: Int = 1
    var minutesPlural: String = ""
    var dailyWaiting: Bool = false
}

struct MissesContext {
    struct Item {
        var number: Int
        var question: String
        var correctAnswer: String
        var explanation: String
        var yourAnswer: String?
        var signName: String?
    }
    var items: [Item]
    var page: Int
    var pageCount: Int
    /// "page 1 of 3" only when there are pages: "(1/1)" above seven misses read as one miss.
    var paged = false
}

struct PickTestContext {
    struct Test {
        var number: Int
        var taken: Bool
        var correct: Int
        var total: Int
        var passed: Bool
        var mark: String
        var hasBest: Bool
        var inProgress: Bool
        var answered: Int
        /// Its first try, when a retake scored more ("first try 10/20 · best 20/20").
        var hasFirstTry = false
        var firstCorrect = 0
    }
    var stateName: String
    var hasQuestions: Bool
    var questions: Int
    var passCorrect: Int
    var standIn: Int
    var sectionsLine: String?
    var timeLimit: Int?
    var tests: [Test]
    var revealAsYouGo: Bool
    var untaught: Int
    var hasUntaught: Bool
    /// "About 30 of each test's questions" read oddly for a 30-question test.
    var mostUntaught: Bool

    init(_ v: PickTestView) {
        revealAsYouGo = v.revealAsYouGo
        untaught = v.untaught
        hasUntaught = v.untaught > 0
        mostUntaught = Double(v.untaught) >= 0.8 * Double(v.state.test.questions ?? TestFormat.unknownCountStandIn)
        let t = v.state.test
        stateName = v.state.name
        hasQuestions = t.questions != nil
        questions = t.questions ?? 0
        passCorrect = t.passCorrect ?? 0
        standIn = TestFormat.unknownCountStandIn
        let described = t.sections.count > 1 || t.sections.first?.passCorrect != nil
        sectionsLine =
            described
            ? t.sections.map { s in
                "\(s.name) \(s.questions)" + (s.passCorrect.map { " (\($0) right)" } ?? "")
                    + (s.separate ? " as a separate test" : "")
            }.joined(separator: ", ") : nil
        timeLimit = t.timeLimitMinutes
        tests = v.best.enumerated().map { i, r in
            let inProgress = v.open.map { $0.number == i + 1 } ?? false
            var test = Test(
                number: i + 1, taken: r != nil || inProgress, correct: r?.correct ?? 0, total: r?.total ?? 0,
                passed: r?.passed ?? false,
                mark: inProgress ? "" : r.map { $0.passed ? "✅ passed" : "❌ not passed yet" } ?? "",
                hasBest: r != nil, inProgress: inProgress, answered: inProgress ? v.open?.answered ?? 0 : 0)
            if i < v.firstTry.count, let first = v.firstTry[i], !inProgress {
                test.hasFirstTry = true
                test.firstCorrect = first.correct
            }
            return test
        }
    }
}

struct StateCardContext {
    // `minimum`, not `passCorrect`: a section without its own minimum must not find the test's
    // overall mark by Mustache's lookup up the context stack ("15 questions, at least 28 right").
    struct Section {
        var name: String
        var questions: Int
        var hasMinimum: Bool
        var minimum: Int
        var separate: Bool
    }
    var name: String
    var ownQuestions: Bool
    var uncertain: Bool
    var hasQuestions: Bool
    var questions: Int
    var passCorrect: Int
    var passPercent: Int
    var standIn: Int
    var sections: [Section]
    var timeLimit: Int?
    var minAge: String
    var ageDetail: String?
    var note: String?
    var handbook: String

    init(_ v: StateCardView) {
        let s = v.state
        name = s.name
        ownQuestions = v.ownQuestions > 0
        uncertain = s.confidence != .high
        hasQuestions = s.test.questions != nil
        questions = s.test.questions ?? 0
        passCorrect = s.test.passCorrect ?? 0
        passPercent = s.test.passPercent ?? 0
        standIn = TestFormat.unknownCountStandIn
        // A single plain section says nothing the first line didn't.
        let plain = s.test.sections.count == 1 && s.test.sections[0].passCorrect == nil
        sections =
            plain
            ? []
            : s.test.sections.map {
                Section(
                    name: $0.name, questions: $0.questions, hasMinimum: $0.passCorrect != nil,
                    minimum: $0.passCorrect ?? 0, separate: $0.separate)
            }
        timeLimit = s.test.timeLimitMinutes
        minAge = StateCardContext.age(s.minPermitAge)
        ageDetail = v.permitAgeDetail
        note = s.note
        handbook = s.handbook
    }

    /// 15.5 → "15½", 14.75 → "14¾".
    static func age(_ a: Double) -> String {
        let whole = Int(a)
        switch a - Double(whole) {
        case 0.2..<0.3: return "\(whole)¼"
        case 0.45..<0.55: return "\(whole)½"
        case 0.7..<0.8: return "\(whole)¾"
        default: return "\(whole)"
        }
    }
}

extension HomeContext: TemplateFields {
    var fields: [String: Any] {
        var f: [String: Any] = [
            "stateName": stateName, "streak": streak, "hasStreak": hasStreak, "studiedToday": studiedToday,
            "missed": missed, "hasMissed": hasMissed, "seen": seen, "total": total, "level": level,
            "answeredToday": answeredToday, "dailyGoal": dailyGoal, "goalReached": goalReached,
            "hasLessons": hasLessons, "lessonsDone": lessonsDone, "lessonsTotal": lessonsTotal,
            "noLessonsYet": noLessonsYet,
        ]
        if let streakEnded { f["streakEnded"] = streakEnded }
        if let league { f["league"] = Prompts.reflected(league) }
        if let lastWeek { f["lastWeek"] = Prompts.reflected(lastWeek) }
        if let dailyWaiting {
            f["dailyWaiting"] = ["answered": dailyWaiting.answered, "total": dailyWaiting.total] as [String: Any]
        }
        return f
    }
}

struct HomeContext {
    var stateName: String
    var streak: Int
    var hasStreak: Bool
    var studiedToday: Bool
    var missed: Int
    var hasMissed: Bool
    var seen: Int
    var total: Int
    var level: Int
    var answeredToday: Int
    var dailyGoal: Int
    var goalReached: Bool
    var streakEnded: Int?
    var hasLessons: Bool
    var lessonsDone: Int
    var lessonsTotal: Int
    var noLessonsYet: Bool
    // "👥 Friends' league: 2nd of 5 this week · Jordan is 40 XP ahead", and last week's winner on Monday.
    var league: LeagueLineContext?
    var lastWeek: LastWeekContext?
    struct DailyWaiting {
        var answered: Int
        var total: Int
    }
    var dailyWaiting: DailyWaiting?

    init(_ v: HomeView) {
        dailyWaiting = v.dailyWaiting.map { DailyWaiting(answered: $0, total: DailyChallenge.length) }
        league = v.league.map(LeagueLineContext.init)
        lastWeek = v.lastWeek.map(LastWeekContext.init)
        hasLessons = v.lessonsTotal > 0
        lessonsDone = v.lessonsDone
        lessonsTotal = v.lessonsTotal
        noLessonsYet = v.lessonsTotal > 0 && v.lessonsDone == 0
        streakEnded = v.streakEnded
        hasMissed = v.missedCount > 0
        level = XP.level(v.xp)
        answeredToday = v.answeredToday
        dailyGoal = v.dailyGoal
        goalReached = v.answeredToday >= v.dailyGoal
        stateName = v.stateName
        streak = v.streak
        hasStreak = v.streak > 0
        studiedToday = v.studiedToday
        missed = v.missedCount
        seen = v.seenCount
        total = v.totalCount
    }
}

struct OptionContext: TemplateFields {
    var letter: String
    var text: String
    var mark: String
    var fields: [String: Any] { ["letter": letter, "text": text, "mark": mark] }
}

struct QuestionContext {
    var number: Int
    var total: Int
    var topic: String
    var sectionName: String?
    var modeName: String?
    var seconds: Int?
    var typeIn: Bool
    var hasLives: Bool
    var hearts: String
    var text: String
    var options: [OptionContext]

    init(_ v: QuestionView, prompts: Prompts) {
        typeIn = v.typeIn
        hasLives = v.lives != nil
        hearts = QuestionContext.hearts(v.lives)
        number = v.number
        total = v.total
        topic = prompts.topicName(v.topic)
        text = v.text
        sectionName = v.sectionName
        seconds = v.secondsPerQuestion
        switch v.mode {
        case .quick, .topic: modeName = nil
        default: modeName = prompts.modeName(v.mode)
        }
        options = v.options.map { OptionContext(letter: $0.letter, text: $0.text, mark: "▫️") }
    }
}

extension QuestionContext {
    /// "❤️❤️🤍": lives left out of three.
    static func hearts(_ lives: Int?) -> String {
        guard let lives else { return "" }
        return String(repeating: "❤️", count: lives) + String(repeating: "🤍", count: max(0, 3 - lives))
    }
}

extension QuestionContext: TemplateFields {
    var fields: [String: Any] {
        var f: [String: Any] = [
            "number": number, "total": total, "topic": topic, "typeIn": typeIn, "hasLives": hasLives,
            "hearts": hearts, "text": text, "options": options.map(\.fields),
        ]
        if let sectionName { f["sectionName"] = sectionName }
        if let modeName { f["modeName"] = modeName }
        if let seconds { f["seconds"] = seconds }
        return f
    }
}
