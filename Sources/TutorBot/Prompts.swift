import Foundation
import Mustache
import TutorCore

public enum PromptsError: Error, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case missingTemplate(String)

    public var description: String {
        switch self {
        case .unreadable(let f, let r): return "prompts: cannot read \(f): \(r)"
        case .missingTemplate(let n): return "prompts: template \(n).mustache is missing"
        }
    }
}

/// Every learner-visible string, rendered from Prompts/<locale>/ by Mustache. Each template has
/// one typed entry point below taking its context struct; `PromptsTests` checks that every
/// variable a template uses exists in that struct and that the result fits Telegram's limits.
public struct Prompts: Sendable {
    /// Names of the message templates (files `<name>.mustache`); `disclaimer` is a partial.
    public static let templateNames = [
        "welcome", "welcome_back", "pick_state", "type_state", "state_card", "home", "question", "answered",
        "results", "review_empty", "pick_topic", "progress", "settings", "help", "about", "notice", "disclaimer",
        "pick_test", "locked_in", "misses", "test_unavailable", "nudge", "confirm_delete", "data_deleted",
        "broadcast", "admin_stats", "admin_reload", "admin_broadcast",
        "flashcard", "flashcards_done", "pick_sign_group", "sign_card", "badge", "level_up",
        "confirm_state", "confirm_switch", "ready_missing",
    ]

    let library: MustacheLibrary
    let strings: Strings
    let textTemplates: [String: MustacheTemplate]
    /// Messages whose text depends on nothing but their kind — every notice ("Hmm, I didn't catch
    /// that…"), help, about and the other screens without a context — rendered once at load by
    /// their templates. A notice went with every stray message: 3 in 10 of the bench's renders,
    /// each looking up 14 flags.
    let fixedNotices: [Notice: String]
    let fixedScreens: [String: String]
    static let fixedScreenNames = ["pick_state", "type_state", "test_unavailable", "confirm_delete", "pick_sign_group",
                                   "data_deleted", "review_empty", "pick_topic", "help", "about"]

    struct Strings: Decodable, Sendable {
        var buttons: [String: String]
        var topics: [String: String]
        var modes: [String: String]
        var cheers: [String]
        var commands: [String: String]
        var admin: [String: String]?
        var signGroups: [String: String]?
        var badges: [String: [String]]?
    }

    public static func load(directory: String) throws -> Prompts {
        TelegramHTML.registerOnce
        var templates: [String: MustacheTemplate] = [:]
        for name in templateNames {
            let path = "\(directory)/\(name).mustache"
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw PromptsError.missingTemplate(path) }
            do { templates[name] = try MustacheTemplate(string: "{{% CONTENT_TYPE: \(TelegramHTML.name)}}" + text) }
            catch { throw PromptsError.unreadable(file: path, reason: "\(error)") }
        }
        let stringsPath = "\(directory)/strings.json"
        do {
            let strings = try JSONDecoder().decode(Strings.self, from: Data(contentsOf: URL(fileURLWithPath: stringsPath)))
            let library = MustacheLibrary(templates: templates), texts = textTemplates(strings)
            let unrendered = Prompts(library: library, strings: strings, textTemplates: texts, fixedNotices: [:], fixedScreens: [:])
            return Prompts(library: library, strings: strings, textTemplates: texts,
                           fixedNotices: Dictionary(uniqueKeysWithValues: Notice.allCases.map { ($0, unrendered.notice(NoticeContext($0))) }),
                           fixedScreens: Dictionary(uniqueKeysWithValues: fixedScreenNames.map { ($0, unrendered.render($0, EmptyContext())) }))
        } catch {
            throw PromptsError.unreadable(file: stringsPath, reason: "\(error)")
        }
    }

    /// A screen without a context: rendered at load (see `fixedScreens`).
    func fixed(_ name: String) -> String {
        fixedScreens[name] ?? render(name, EmptyContext())
    }

    /// Renders a template with its context; trimmed, as Telegram trims anyway.
    public func render(_ name: String, _ context: Any) -> String {
        Prompts.trimmed(library.render(Prompts.tree(context), withTemplate: name) ?? "")
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)` without the trip through NSString (it was
    /// 6% of an update): the same set, Unicode's space separators, tab, the newlines U+000A-U+000D,
    /// U+0085, U+2028 and U+2029.
    static func trimmed(_ s: String) -> String {
        func isSpace(_ c: Unicode.Scalar) -> Bool {
            switch c.value {
            case 0x09...0x0D, 0x20, 0x85, 0x2028, 0x2029: return true
            case 0..<0x80: return false
            default: return c.properties.generalCategory == .spaceSeparator
            }
        }
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return s }
        return String(scalars[first...last])
    }

    /// The context as nested dictionaries. Mustache would otherwise reflect (Mirror) the struct
    /// again for every variable it looks up — most of the time of a reply went there; one
    /// reflection per render is enough. nil optionals are left out, so they read as false.
    static func tree(_ value: Any) -> Any {
        if let c = value as? TemplateFields { return c.fields }
        return reflected(value)
    }

    /// `tree` by reflection (the contexts that list no fields). `purely`: nested contexts are
    /// reflected too, never read from their field lists (the tests compare the two ways).
    static func reflected(_ value: Any, purely: Bool = false) -> Any {
        func nested(_ v: Any) -> Any { purely ? reflected(v, purely: true) : tree(v) }
        // Leaves first, without reflection: most values are strings, numbers and flags.
        switch value {
        case is String, is Int, is Bool, is Int64, is Double: return value
        case let list as [OptionContext] where !purely: return list.map(\.fields)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct, .class:
            var d: [String: Any] = [:]
            for child in mirror.children {
                guard let label = child.label, let v = unwrap(child.value) else { continue }
                d[label] = nested(v)
            }
            return d
        case .collection:
            return mirror.children.compactMap { unwrap($0.value).map(nested) }
        case .optional:
            return unwrap(value).map(nested) ?? false
        default:
            return value
        }
    }

    static func unwrap(_ value: Any) -> Any? {
        switch value {
        case is String, is Int, is Bool, is Int64, is Double: return value
        default: break
        }
        let m = Mirror(reflecting: value)
        guard m.displayStyle == .optional else { return value }
        return m.children.first.map(\.value)
    }

    /// Plain text (button labels): no HTML escaping, since Telegram shows button text as is.
    func text(_ template: String, _ context: [String: String] = [:]) -> String {
        guard let t = textTemplates[template] ?? (try? MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + template)) else { return template }
        return t.render(context)
    }

    /// The button and mode strings parsed once at load (they were parsed again for every label).
    static func textTemplates(_ strings: Strings) -> [String: MustacheTemplate] {
        var all: [String: MustacheTemplate] = [:]
        for template in Array(strings.buttons.values) + Array(strings.modes.values) {
            all[template] = try? MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + template)
        }
        return all
    }

    // MARK: - names

    public func topicName(_ t: Topic) -> String { strings.topics[t.rawValue] ?? t.rawValue }

    public func modeName(_ m: QuizMode) -> String {
        switch m {
        case .quick: return text(strings.modes["quick"] ?? "Quick quiz")
        case .review: return text(strings.modes["review"] ?? "Review")
        case .topic(let t): return text(strings.modes["topic"] ?? "{{topic}}", ["topic": topicName(t)])
        case .practiceTest(0): return text(strings.modes["randomTest"] ?? "Random test")
        case .practiceTest(let n): return text(strings.modes["practiceTest"] ?? "Test {{number}}", ["number": String(n)])
        case .timedChallenge: return text(strings.modes["timedChallenge"] ?? "Think Fast")
        case .livesChallenge: return text(strings.modes["livesChallenge"] ?? "3 lives")
        case .signGroup(let g): return text(strings.modes["signGroup"] ?? "{{group}}", ["group": signGroupName(g)])
        }
    }

    public func signGroupName(_ g: SignGroup) -> String { strings.signGroups?[g.rawValue] ?? g.rawValue }

    /// A badge's name and the line that says why it was earned.
    public func badge(_ b: Badge) -> (name: String, why: String) {
        let entry = strings.badges?[b.rawValue] ?? []
        return (entry.first ?? b.rawValue, entry.count > 1 ? entry[1] : "")
    }

    public func commandDescription(_ c: Command) -> String { strings.commands[c.rawValue] ?? c.rawValue }

    public func label(_ l: ButtonLabel) -> String {
        let b = strings.buttons
        switch l {
        case .letter(let s): return s
        case .state(let name): return name
        case .topic(let t): return topicName(t)
        case .yesState(let name): return text(b["yesState"] ?? "Yes, {{name}}", ["name": name])
        case .pickAnother: return b["pickAnother"] ?? "Pick another"
        case .switchTo(let name): return text(b["switchTo"] ?? "Switch to {{name}}", ["name": name])
        case .backToTest: return b["backToTest"] ?? "Back to my test"
        case .doneForNow: return b["doneForNow"] ?? "Done for now"
        case .messagesBackOn: return b["messagesBackOn"] ?? "Turn messages back on"
        case .reviewMissed(let n): return text(b["reviewMissed"] ?? "Review ({{count}})", ["count": String(n)])
        case .continueQuiz(let n, let total):
            return text(b["continueQuiz"] ?? "Continue", ["number": String(n), "total": String(total)])
        case .next: return b["next"] ?? "Next"
        case .seeResults: return b["seeResults"] ?? "Results"
        case .home: return b["home"] ?? "Home"
        case .quickQuiz: return b["quickQuiz"] ?? "Quick quiz"
        case .topics: return b["topics"] ?? "Topics"
        case .progress: return b["progress"] ?? "Progress"
        case .settings: return b["settings"] ?? "Settings"
        case .help: return b["help"] ?? "Help"
        case .about: return b["about"] ?? "About"
        case .reviewMyMisses: return b["reviewMyMisses"] ?? "Review my misses"
        case .tryAnother: return b["tryAnother"] ?? "Try another"
        case .changeState: return b["changeState"] ?? "Change state"
        case .otherState: return b["otherState"] ?? "Another state"
        case .practiceTest: return b["practiceTest"] ?? "Practice test"
        case .timedChallenge: return b["timedChallenge"] ?? "Think Fast"
        case .randomTest: return b["randomTest"] ?? "Random test"
        case .morePages: return b["morePages"] ?? "More"
        case .testNumber(let n, let passed):
            return text(b["testNumber"] ?? "Test {{number}}", ["number": String(n), "mark": passed.map { $0 ? " ✅" : " ❌" } ?? ""])
        case .seeMisses(let n): return text(b["seeMisses"] ?? "Misses ({{count}})", ["count": String(n)])
        case .revealAnswers(let on): return (on ? b["revealOn"] : b["revealOff"]) ?? (on ? "Show answers as I go" : "Reveal at the end")
        case .nudges(let on): return (on ? b["nudgesOn"] : b["nudgesOff"]) ?? (on ? "Reminders on" : "Reminders off")
        case .nudgeTime(let minute, let selected):
            return text(b[selected ? "nudgeTimeSelected" : "nudgeTime"] ?? "{{time}}", ["time": Prompts.clock(minute)])
        case .zone(let id, let selected):
            let city = id.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") } ?? id
            return selected ? text(b["zoneSelected"] ?? "{{zone}}", ["zone": city]) : city
        case .deleteData: return b["deleteData"] ?? "Delete my data"
        case .confirmDelete: return b["confirmDelete"] ?? "Delete"
        case .keepData: return b["keepData"] ?? "Keep"
        case .flashcards(let due):
            guard due > 0 else { return b["flashcardsNone"] ?? "Flashcards" }
            return text(b["flashcards"] ?? "Flashcards ({{due}} due)", ["due": String(due), "minutes": String(Prompts.cardMinutes(due))])
        case .showAnswer: return b["showAnswer"] ?? "Show answer"
        case .rate(let r, let simple):
            switch (r, simple) {
            case (.again, true): return b["needPractice"] ?? "Need practice"
            case (_, true): return b["knewIt"] ?? "Knew it"
            case (.again, false): return b["rateAgain"] ?? "Again"
            case (.hard, false): return b["rateHard"] ?? "Hard"
            case (.good, false): return b["rateGood"] ?? "Good"
            case (.easy, false): return b["rateEasy"] ?? "Easy"
            }
        case .gallery: return b["gallery"] ?? "Road signs"
        case .livesChallenge: return b["livesChallenge"] ?? "3 lives"
        case .previous: return b["previous"] ?? "Previous"
        case .nextSign: return b["nextSign"] ?? "Next"
        case .quizMeOnThese: return b["quizMeOnThese"] ?? "Quiz me"
        case .signGroup(let g): return signGroupName(g)
        case .fourButtons(let on): return (on ? b["fourButtonsOn"] : b["fourButtonsOff"]) ?? "Card buttons"
        }
    }

    /// Minutes a session of `cards` takes (at most one session's worth), rounded up: the honest estimate.
    static func cardMinutes(_ cards: Int) -> Int {
        max(1, (min(cards, 20) * 8 + 59) / 60)
    }

    /// 960 → "4 pm", 1050 → "5:30 pm": how US teens read a time.
    static func clock(_ minute: Int) -> String {
        let h = minute / 60, m = minute % 60
        let hour12 = h % 12 == 0 ? 12 : h % 12
        return (m == 0 ? "\(hour12)" : String(format: "%d:%02d", hour12, m)) + (h < 12 ? " am" : " pm")
    }

    // MARK: - messages

    /// The HTML text of a message (Telegram parse_mode HTML).
    public func render(_ message: Message) -> String {
        switch message {
        case .welcome(let name): return welcome(WelcomeContext(firstName: name))
        case .welcomeBack(let name): return render("welcome_back", WelcomeContext(firstName: name))
        case .pickState: return fixed("pick_state")
        case .typeState: return fixed("type_state")
        case .confirmState(let s):
            struct C { var name: String }
            return render("confirm_state", C(name: s.name))
        case .confirmSwitch(let from, let to, let test):
            struct C { var from: String; var to: String; var test: String }
            return render("confirm_switch", C(from: from, to: to, test: modeName(test)))
        case .stateCard(let v): return stateCard(StateCardContext(v))
        case .home(let v): return home(HomeContext(v))
        case .question(let v): return question(QuestionContext(v, prompts: self))
        case .answered(let v): return answered(AnsweredContext(v, prompts: self))
        case .lockedIn(let v): return render("locked_in", AnsweredContext(v, prompts: self, lockedIn: true))
        case .pickTest(let v): return render("pick_test", PickTestContext(v))
        case .misses(let v): return render("misses", MissesContext(items: v.items.map {
            MissesContext.Item(number: $0.number, question: $0.question, correctAnswer: $0.correctAnswer, explanation: $0.explanation,
                               yourAnswer: $0.yourAnswer, signName: $0.signName)
        }, page: v.page, pageCount: v.pageCount))
        case .testUnavailable: return fixed("test_unavailable")
        case .nudge(let v):
            var c = NudgeContext(firstName: v.firstName, streak: v.streak, hasStreak: v.streak > 0,
                                                               missed: v.missedCount, hasMissed: v.missedCount > 0,
                                                               cards: v.cardsDue, hasCards: v.cardsDue > 0, cardsPlural: v.cardsDue == 1 ? "" : "s")
            c.minutes = Prompts.cardMinutes(v.cardsDue); c.minutesPlural = c.minutes == 1 ? "" : "s"
            return render("nudge", c)
        case .confirmDelete: return fixed("confirm_delete")
        case .flashcard(let v):
            struct C { var number: Int; var total: Int; var topic: String; var question: String; var back: Bool; var answer: String; var explanation: String }
            return render("flashcard", C(number: v.number, total: v.total, topic: topicName(v.topic), question: v.question,
                                         back: v.answer != nil, answer: v.answer ?? "", explanation: v.explanation ?? ""))
        case .flashcardsDone(let v):
            struct C { var reviewed: Int; var hasReviewed: Bool; var plural: String; var dueTomorrow: Int; var tomorrowPlural: String; var dueThisWeek: Int
                       var reward: RewardContext?; var leftEarly: Bool; var dueNow: Int; var hasDueNow: Bool; var nowPlural: String }
            return render("flashcards_done", C(reviewed: v.reviewed, hasReviewed: v.reviewed > 0, plural: v.reviewed == 1 ? "" : "s", dueTomorrow: v.dueTomorrow,
                                               tomorrowPlural: v.dueTomorrow == 1 ? "" : "s", dueThisWeek: v.dueThisWeek,
                                               reward: v.reward.map(RewardContext.init), leftEarly: v.leftEarly,
                                               dueNow: v.dueNow, hasDueNow: v.dueNow > 0, nowPlural: v.dueNow == 1 ? "" : "s"))
        case .pickSignGroup: return fixed("pick_sign_group")
        case .signCard(let v):
            struct C { var name: String; var mutcd: String?; var number: Int; var total: Int; var meaning: String; var rule: String }
            return render("sign_card", C(name: v.sign.name, mutcd: v.sign.mutcd, number: v.number, total: v.total, meaning: v.sign.meaning, rule: v.sign.rule))
        case .badgeEarned(let b):
            struct C { var name: String; var why: String }
            let (name, why) = badge(b)
            return render("badge", C(name: name, why: why))
        case .levelUp(let level):
            struct C { var level: Int }
            return render("level_up", C(level: level))
        case .dataDeleted: return fixed("data_deleted")
        case .results(let v): return results(ResultsContext(v, prompts: self))
        case .reviewEmpty: return fixed("review_empty")
        case .pickTopic: return fixed("pick_topic")
        case .progress(let v): return progress(ProgressContext(v, prompts: self))
        case .settings(let v): return render("settings", SettingsContext(v))
        case .help: return fixed("help")
        case .about: return fixed("about")
        case .notice(let n): return fixedNotices[n] ?? notice(NoticeContext(n))
        }
    }

    func welcome(_ c: WelcomeContext) -> String { render("welcome", c) }
    func stateCard(_ c: StateCardContext) -> String { render("state_card", c) }
    func home(_ c: HomeContext) -> String { render("home", c) }
    func question(_ c: QuestionContext) -> String { render("question", c) }
    func answered(_ c: AnsweredContext) -> String { render("answered", c) }
    func results(_ c: ResultsContext) -> String { render("results", c) }
    func progress(_ c: ProgressContext) -> String { render("progress", c) }
    func notice(_ c: NoticeContext) -> String { render("notice", c) }
}

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

    init(_ v: SettingsView) {
        stopped = v.stopped
        fourButtons = v.fourButtonCards
        stateName = v.stateName; reveal = v.revealAnswersAsYouGo; nudgesOn = v.nudgesOn
        nudgeTime = Prompts.clock(v.nudgeMinute); paused = v.paused
        timeZone = v.timeZone.map { $0.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") } ?? $0 }
    }
}

struct NudgeContext {
    var firstName: String; var streak: Int; var hasStreak: Bool; var missed: Int; var hasMissed: Bool
    var cards: Int; var hasCards: Bool; var cardsPlural: String
    var minutes: Int = 1; var minutesPlural: String = ""
}

struct MissesContext {
    struct Item { var number: Int; var question: String; var correctAnswer: String; var explanation: String; var yourAnswer: String?; var signName: String? }
    var items: [Item]
    var page: Int
    var pageCount: Int
}

struct PickTestContext {
    struct Test { var number: Int; var taken: Bool; var correct: Int; var total: Int; var passed: Bool; var mark: String }
    var stateName: String
    var hasQuestions: Bool
    var questions: Int
    var passCorrect: Int
    var standIn: Int
    var sectionsLine: String?
    var timeLimit: Int?
    var tests: [Test]

    init(_ v: PickTestView) {
        let t = v.state.test
        stateName = v.state.name
        hasQuestions = t.questions != nil
        questions = t.questions ?? 0
        passCorrect = t.passCorrect ?? 0
        standIn = TestFormat.unknownCountStandIn
        let described = t.sections.count > 1 || t.sections.first?.passCorrect != nil
        sectionsLine = described ? t.sections.map { s in
            "\(s.name) \(s.questions)" + (s.passCorrect.map { " (\($0) right)" } ?? "") + (s.separate ? " as a separate test" : "")
        }.joined(separator: ", ") : nil
        timeLimit = t.timeLimitMinutes
        tests = v.best.enumerated().map { i, r in
            Test(number: i + 1, taken: r != nil, correct: r?.correct ?? 0, total: r?.total ?? 0, passed: r?.passed ?? false,
                 mark: r.map { $0.passed ? "✅ passed" : "❌ not passed yet" } ?? "")
        }
    }
}

struct StateCardContext {
    // `minimum`, not `passCorrect`: a section without its own minimum must not find the test's
    // overall mark by Mustache's lookup up the context stack ("15 questions, at least 28 right").
    struct Section { var name: String; var questions: Int; var hasMinimum: Bool; var minimum: Int; var separate: Bool }
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
        sections = plain ? [] : s.test.sections.map {
            Section(name: $0.name, questions: $0.questions, hasMinimum: $0.passCorrect != nil, minimum: $0.passCorrect ?? 0, separate: $0.separate)
        }
        timeLimit = s.test.timeLimitMinutes
        minAge = StateCardContext.age(s.minPermitAge)
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
        var f: [String: Any] = ["stateName": stateName, "streak": streak, "hasStreak": hasStreak, "studiedToday": studiedToday,
                                "missed": missed, "hasMissed": hasMissed, "seen": seen, "total": total, "level": level,
                                "answeredToday": answeredToday, "dailyGoal": dailyGoal, "goalReached": goalReached]
        if let streakEnded { f["streakEnded"] = streakEnded }
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

    init(_ v: HomeView) {
        streakEnded = v.streakEnded
        hasMissed = v.missedCount > 0
        level = XP.level(v.xp)
        answeredToday = min(v.answeredToday, v.dailyGoal); dailyGoal = v.dailyGoal; goalReached = v.answeredToday >= v.dailyGoal
        stateName = v.stateName; streak = v.streak; hasStreak = v.streak > 0; studiedToday = v.studiedToday
        missed = v.missedCount; seen = v.seenCount; total = v.totalCount
    }
}

struct OptionContext: TemplateFields {
    var letter: String; var text: String; var mark: String
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
        number = v.number; total = v.total; topic = prompts.topicName(v.topic); text = v.text
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
        var f: [String: Any] = ["number": number, "total": total, "topic": topic, "typeIn": typeIn, "hasLives": hasLives,
                                "hearts": hearts, "text": text, "options": options.map(\.fields)]
        if let sectionName { f["sectionName"] = sectionName }
        if let modeName { f["modeName"] = modeName }
        if let seconds { f["seconds"] = seconds }
        return f
    }
}

struct AnsweredContext {
    var number: Int
    var total: Int
    var topic: String
    var sectionName: String?
    var text: String
    var options: [OptionContext]
    var isCorrect: Bool
    var timedOut: Bool
    var cheer: String
    var chosenLetter: String
    var correctLetter: String
    /// "B" for a lettered question, the answer itself for a typed one.
    var correctAnswer: String
    var typed: String?
    var hasLives: Bool
    var hearts: String
    var explanation: String
    var source: String
    var skipped: Bool

    /// `lockedIn`: a practice-test answer shown without giving away whether it was right.
    init(_ v: AnsweredView, prompts: Prompts, lockedIn: Bool = false) {
        correctAnswer = v.question.typeIn ? v.correctText : v.correctLetter
        typed = v.typed
        hasLives = v.question.lives != nil
        hearts = QuestionContext.hearts(v.question.lives)
        number = v.question.number; total = v.question.total; topic = prompts.topicName(v.question.topic); text = v.question.text
        sectionName = v.question.sectionName
        timedOut = v.timedOut
        skipped = v.skipped
        chosenLetter = v.chosenLetter
        options = v.question.options.map { o in
            if lockedIn { return OptionContext(letter: o.letter, text: o.text, mark: o.letter == v.chosenLetter ? "🔘" : "▫️") }
            return OptionContext(letter: o.letter, text: o.text,
                                 mark: o.letter == v.correctLetter ? "✅" : (o.letter == v.chosenLetter ? "❌" : "▫️"))
        }
        isCorrect = v.isCorrect
        let cheers = prompts.strings.cheers
        cheer = cheers.isEmpty ? "Correct!" : cheers[(v.question.number + v.question.text.count) % cheers.count]
        correctLetter = v.correctLetter; explanation = v.explanation
        // A universal question cites the learner's own handbook and the topic's chapter: a Texas
        // learner is never sent to a standard's section code or another state's manual.
        let chapter = topic
        source = v.handbook.map { "\($0) — \(chapter)" } ?? v.source
    }
}

extension AnsweredContext: TemplateFields {
    var fields: [String: Any] {
        var f: [String: Any] = ["number": number, "total": total, "topic": topic, "text": text, "options": options.map(\.fields),
                                "isCorrect": isCorrect, "timedOut": timedOut, "cheer": cheer, "chosenLetter": chosenLetter,
                                "correctLetter": correctLetter, "correctAnswer": correctAnswer, "hasLives": hasLives,
                                "hearts": hearts, "explanation": explanation, "source": source, "skipped": skipped]
        if let sectionName { f["sectionName"] = sectionName }
        if let typed { f["typed"] = typed }
        return f
    }
}

struct TopicLine { var name: String; var correct: Int; var total: Int }

extension TopicLine: TemplateFields {
    var fields: [String: Any] { ["name": name, "correct": correct, "total": total] }
}

// The results screen ends every quiz and test: its nested contexts list their fields too
// (reflecting them was 2% of an update).
extension ResultsContext: TemplateFields {
    var fields: [String: Any] {
        var f: [String: Any] = [
            "isExam": isExam, "needed": needed, "sections": sections.map(\.fields), "overallOK": overallOK, "timedOut": timedOut,
            "timeLimit": timeLimit, "isTimed": isTimed, "average": average, "hasBest": hasBest, "newBest": newBest, "firstBest": firstBest, "best": best,
            "sectionNeeds": sectionNeeds, "hasSectionNeeds": hasSectionNeeds, "weak": weak.map(\.fields), "hasWeak": hasWeak,
            "modeName": modeName, "correct": correct, "total": total, "percent": percent, "perfect": perfect, "hasPassMark": hasPassMark,
            "passed": passed, "passPercent": passPercent, "gap": gap, "gapPlural": gapPlural, "stateName": stateName,
            "topics": topics.map(\.fields), "duration": duration, "tookBreak": tookBreak]
        if let readiness { f["readiness"] = readiness.fields }
        if let reward { f["reward"] = reward.fields }
        return f
    }
}

extension ResultsContext.Section: TemplateFields {
    var fields: [String: Any] { ["name": name, "correct": correct, "total": total, "hasNeeded": hasNeeded, "needed": needed, "mark": mark] }
}

extension ResultsContext.Weak: TemplateFields {
    var fields: [String: Any] { ["name": name, "correct": correct, "total": total, "last": last] }
}


struct ResultsContext {
    struct Section { var name: String; var correct: Int; var total: Int; var hasNeeded: Bool; var needed: Int; var mark: String }
    var isExam: Bool
    var needed: Int
    var sections: [Section]
    var overallOK: Bool
    var timedOut: Bool
    var timeLimit: Int
    var readiness: ReadinessContext?
    var reward: RewardContext?
    var isTimed: Bool
    var average: String
    var hasBest: Bool
    var newBest: Bool
    var firstBest: Bool
    var best: Int
    var sectionNeeds: String
    var hasSectionNeeds: Bool
    struct Weak { var name: String; var correct: Int; var total: Int; var last: Bool }
    var weak: [Weak]
    var hasWeak: Bool
    var modeName: String
    var correct: Int
    var total: Int
    var percent: Int
    var perfect: Bool
    var hasPassMark: Bool
    var passed: Bool
    var passPercent: Int
    var gap: Int
    var gapPlural: String
    var stateName: String
    var topics: [TopicLine]
    var duration: String
    var tookBreak: Bool
    /// Longer than this, a quiz was left and taken up again: its clock time is not shown.
    static let oneSitting = 90 * 60

    init(_ v: ResultsView, prompts: Prompts) {
        let r = v.result
        modeName = prompts.modeName(r.mode); correct = r.correct; total = r.total; percent = r.percent
        perfect = r.total > 0 && r.correct == r.total
        hasPassMark = r.passPercent != nil && v.stateName != nil
        passed = r.passed; passPercent = r.passPercent ?? 0
        gap = max(0, passPercent - percent); gapPlural = gap == 1 ? "" : "s"
        stateName = v.stateName ?? ""
        topics = r.byTopic.map { TopicLine(name: prompts.topicName($0.topic), correct: $0.correct, total: $0.total) }
        isExam = r.exam != nil
        needed = r.exam?.needed ?? 0
        let exam = r.exam
        sections = (exam?.sections.count ?? 0) > 1 ? exam!.sections.map {
            Section(name: $0.name, correct: $0.correct, total: $0.total, hasNeeded: $0.needed != nil, needed: $0.needed ?? 0,
                    mark: $0.needed == nil ? "" : ($0.passed ? "✅" : "❌"))
        } : []
        overallOK = (r.exam.map { $0.correct >= $0.needed }) ?? false
        timedOut = r.timedOut == true
        timeLimit = v.timeLimitMinutes ?? 0
        readiness = v.readiness.map(ReadinessContext.init)
        reward = v.reward.map(RewardContext.init)
        isTimed = r.mode == .timedChallenge
        average = v.averageSeconds.map { String(format: "%.1f", $0) } ?? ""
        // Think Fast always shows its best: the first game's score is the one to beat.
        hasBest = r.mode == .timedChallenge
        firstBest = v.previousBest == nil
        best = max(v.previousBest ?? 0, r.correct)
        newBest = v.previousBest != nil && (v.previousBest ?? 0) < r.correct
        // A failed test that reached the overall mark failed on a section's own minimum: say that,
        // not "17/20, and New York needs 14".
        let failedSections = (r.exam?.sections ?? []).filter { !$0.passed }
        hasSectionNeeds = !failedSections.isEmpty
        // After a test, the topics with misses, weakest first: what to study next.
        // (A topic that is also a section shown above, like NY's Road signs, is not named again.)
        let sectionNames = Set(sections.map { $0.name.lowercased() })
        let missedTopics = r.byTopic.filter { $0.correct < $0.total && !sectionNames.contains(prompts.topicName($0.topic).lowercased()) }
            .sorted { Double($0.correct) / Double($0.total) < Double($1.correct) / Double($1.total) }.prefix(4)
        weak = missedTopics.enumerated().map { i, t in
            Weak(name: prompts.topicName(t.topic), correct: t.correct, total: t.total, last: i == missedTopics.count - 1)
        }
        hasWeak = !weak.isEmpty
        sectionNeeds = failedSections.map { "\($0.needed ?? 0) of \($0.total) \($0.name.lowercased()) right (you got \($0.correct))" }.joined(separator: " and ")
        let s = v.durationSeconds
        duration = s < 60 ? "\(s) s" : (s < 3600 ? "\(s / 60) min \(s % 60) s" : "\(s / 3600) h \(s % 3600 / 60) min")
        // A quiz left for hours and finished later: its clock time says nothing about the learner.
        tookBreak = s >= ResultsContext.oneSitting
    }
}

/// The chance of passing as a range with its coverage, and what "Ready to test" still needs
/// ("2 of 3 tests passed · 3 topics not tried").
struct ReadinessContext {
    var shown: Bool
    var low: Int
    var high: Int
    var lowChance: Bool
    var seen: Int
    var poolSize: Int
    var ready: Bool
    var topicsNotTried: Int
    var topicPlural: String
    // What "Ready to test" still needs, worded in ready_missing.mustache.
    var testsPassed: Int
    var testsNeeded: Int
    var needTests: Bool
    var needTopics: Bool
    var needChance: Bool
    var needMore: Bool
    var sepBeforeTopics: Bool
    var sepBeforeChance: Bool
    var marginScore: Int
    var testQuestions: Int

    init(_ r: ReadinessSummary) {
        shown = r.shown; low = r.lowPercent; high = r.highPercent; lowChance = r.highPercent < 50
        seen = r.seen; poolSize = r.poolSize; ready = r.ready
        topicsNotTried = r.topicsNotTried; topicPlural = r.topicsNotTried == 1 ? "" : "s"
        testsPassed = r.testsPassedWithMargin; testsNeeded = r.testsNeeded
        needTests = r.testsPassedWithMargin < r.testsNeeded
        needTopics = r.topicsNotTried > 0
        needChance = !r.chanceHigh && r.shown
        needMore = !ready && !needTests && !needTopics && !needChance
        sepBeforeTopics = needTests && needTopics
        sepBeforeChance = (needTests || needTopics) && needChance
        marginScore = r.marginScore; testQuestions = r.testQuestions
    }
}

/// "+120 XP · Today 20/20 ✅ · 🔥 4-day streak" at the end of a session.
extension RewardContext: TemplateFields {
    var fields: [String: Any] {
        ["xp": xp, "done": done, "goal": goal, "goalMet": goalMet, "streak": streak, "hasStreak": hasStreak, "streakPlural": streakPlural]
    }
}

extension ReadinessContext: TemplateFields {
    var fields: [String: Any] {
        ["shown": shown, "low": low, "high": high, "lowChance": lowChance, "seen": seen, "poolSize": poolSize, "ready": ready,
         "topicsNotTried": topicsNotTried, "topicPlural": topicPlural, "testsPassed": testsPassed, "testsNeeded": testsNeeded,
         "needTests": needTests, "needTopics": needTopics, "needChance": needChance, "needMore": needMore,
         "sepBeforeTopics": sepBeforeTopics, "sepBeforeChance": sepBeforeChance, "marginScore": marginScore, "testQuestions": testQuestions]
    }
}

struct RewardContext {
    var xp: Int
    var done: Int
    var goal: Int
    var goalMet: Bool
    var streak: Int
    var hasStreak: Bool
    var streakPlural: String

    init(_ r: SessionReward) {
        xp = r.xpEarned; done = r.goalDone; goal = r.goal; goalMet = r.goalDone >= r.goal
        streak = r.streak; hasStreak = r.streak > 0; streakPlural = r.streak == 1 ? "" : "s"
    }
}

struct ProgressContext {
    struct Bar { var name: String; var bar: String; var percent: Int; var mastered: Int; var total: Int }
    struct Recent { var name: String; var correct: Int; var total: Int; var percent: Int; var passed: Bool; var failedTest: Bool }
    var stateName: String
    var bars: [Bar]
    var seen: Int
    var total: Int
    var streak: Int
    var streakPlural: String
    var best: Int
    var hasRecent: Bool
    var recent: [Recent]
    var readiness: ReadinessContext?
    var level: Int
    var xp: Int
    var hasBadges: Bool
    var badgeList: String
    var cardsDue: Int
    var freezes: Int
    var hasFreezes: Bool
    var freezePlural: String

    init(_ v: ProgressView, prompts: Prompts) {
        freezes = v.freezes; hasFreezes = v.freezes > 0; freezePlural = v.freezes == 1 ? "" : "s"
        level = XP.level(v.xp); xp = v.xp; cardsDue = v.cardsDue
        hasBadges = !v.badges.isEmpty
        badgeList = v.badges.map { prompts.badge($0).name }.joined(separator: " · ")
        readiness = v.readiness.map(ReadinessContext.init)
        stateName = v.stateName
        bars = v.mastery.map { Bar(name: prompts.topicName($0.topic), bar: ProgressContext.bar($0.percent), percent: $0.percent,
                                   mastered: $0.mastered, total: $0.total) }
        seen = v.seenCount; total = v.totalCount; streak = v.streak; streakPlural = v.streak == 1 ? "" : "s"; best = v.bestStreak
        hasRecent = !v.recent.isEmpty
        recent = v.recent.map { Recent(name: prompts.modeName($0.mode), correct: $0.correct, total: $0.total, percent: $0.percent, passed: $0.passed,
                                       failedTest: $0.exam != nil && !$0.passed) }
    }

    /// `▓▓▓▓▓▓░░░░` for 62%: ten cells, rounded to the nearest.
    static func bar(_ percent: Int) -> String {
        let filled = min(10, max(0, Int((Double(percent) / 10).rounded())))
        return String(repeating: "▓", count: filled) + String(repeating: "░", count: 10 - filled)
    }
}

struct NoticeContext {
    var didNotCatchThat = false, staleButton = false, garbledButton = false, alreadyAnswered = false
    var unsupportedContent = false, editedMessage = false, tooLong = false, groupChat = false
    var stopped = false, resumed = false, stateNotFound = false, timeRanOut = false
    var answerAbove = false, typeTheAnswer = false, ourFault = false, reminderQuietHours = false

    init(_ n: Notice) {
        switch n {
        case .didNotCatchThat: didNotCatchThat = true
        case .staleButton: staleButton = true
        case .garbledButton: garbledButton = true
        case .alreadyAnswered: alreadyAnswered = true
        case .unsupportedContent: unsupportedContent = true
        case .editedMessage: editedMessage = true
        case .tooLong: tooLong = true
        case .groupChat: groupChat = true
        case .stopped: stopped = true
        case .resumed: resumed = true
        case .stateNotFound: stateNotFound = true
        case .timeRanOut: timeRanOut = true
        case .answerAbove: answerAbove = true
        case .typeTheAnswer: typeTheAnswer = true
        case .ourFault: ourFault = true
        case .reminderQuietHours: reminderQuietHours = true
        }
    }
}

/// Escaping for Telegram's HTML parse mode: only `<`, `>` and `&` need it in text (quotes only
/// inside attributes, which our templates never fill), and most text has none of them, so it is
/// returned untouched after one pass over its bytes. (Mustache's own HTML escaping rebuilt every
/// string character by character: a tenth of an update's cost.)
struct TelegramHTML: MustacheContentType {
    static let name = "TELEGRAM_HTML"
    static let registerOnce: Void = { MustacheContentTypes.register(TelegramHTML(), named: name) }()

    func escapeText(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for c in text.unicodeScalars {
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
