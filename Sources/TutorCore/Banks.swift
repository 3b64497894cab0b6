import Foundation

/// The topics a question belongs to, following a state driver handbook's chapters; the raw
/// values are the bank files' `category` strings. `stateSpecific` (licensing rules) only
/// occurs in state files; every other topic has universal questions.
public enum Topic: String, Codable, CaseIterable, Sendable, Comparable {
    case roadSigns, signals, pavementMarkings, rightOfWay, turning, passing, laneUse, speedAndSpace, freeways,
        parking, sharingTheRoad, workZones, railroads, emergencies, nightAndWeather, alcoholDrugs, distraction,
        crashes, vehicleControl, stateSpecific

    public static func < (a: Topic, b: Topic) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

public enum Difficulty: String, Codable, CaseIterable, Sendable {
    case easy, medium, hard
}

public enum QuestionKind: String, Codable, Sendable {
    case multipleChoice, trueFalse
    /// Typed answer: `answers[0]` is the canonical answer, `acceptedAnswers` other ways to write it.
    case fillIn
}

/// One question as the bank states it; `answers[correctAnswerIndex]` is right. Its fields live in one shared,
/// copy-on-write box: the dialogue copies questions out of pools of hundreds on most screens, and a copy of thirteen
/// strings and arrays (a retain each) was the largest single cost of an update; a copy of the box is one retain.
public struct Question: Codable, Equatable, Sendable {
    struct Fields: Codable, Equatable, Sendable {
        var id: String
        var category: Topic
        var difficulty: Difficulty
        var kind: QuestionKind
        var questionText: String
        var answers: [String]
        var correctAnswerIndex: Int
        var explanation: String
        var source: String
        var imageAssetName: String?
        var stateCode: String?
        var acceptedAnswers: [String]? = nil
        var distinctFrom: [String]? = nil
    }

    // @unchecked Sendable: `fields` is only ever written through `unique()`, on a box no other
    // Question shares, so a box another thread can see is never mutated.
    final class Box: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    private mutating func unique() -> Box {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
        return box
    }

    public var id: String {
        get { box.fields.id }
        set { unique().fields.id = newValue }
    }
    public var category: Topic {
        get { box.fields.category }
        set { unique().fields.category = newValue }
    }
    public var difficulty: Difficulty {
        get { box.fields.difficulty }
        set { unique().fields.difficulty = newValue }
    }
    public var kind: QuestionKind {
        get { box.fields.kind }
        set { unique().fields.kind = newValue }
    }
    public var questionText: String {
        get { box.fields.questionText }
        set { unique().fields.questionText = newValue }
    }
    public var answers: [String] {
        get { box.fields.answers }
        set { unique().fields.answers = newValue }
    }
    public var correctAnswerIndex: Int {
        get { box.fields.correctAnswerIndex }
        set { unique().fields.correctAnswerIndex = newValue }
    }
    public var explanation: String {
        get { box.fields.explanation }
        set { unique().fields.explanation = newValue }
    }
    public var source: String {
        get { box.fields.source }
        set { unique().fields.source = newValue }
    }
    public var imageAssetName: String? {
        get { box.fields.imageAssetName }
        set { unique().fields.imageAssetName = newValue }
    }
    /// nil for universal questions.
    public var stateCode: String? {
        get { box.fields.stateCode }
        set { unique().fields.stateCode = newValue }
    }
    /// Fill-in questions: other accepted spellings of the answer ("eight" for "8").
    public var acceptedAnswers: [String]? {
        get { box.fields.acceptedAnswers }
        set { unique().fields.acceptedAnswers = newValue }
    }
    /// Questions a reviewer checked and found to test a different fact, though they read alike
    /// (the near-duplicate lint skips these pairs).
    public var distinctFrom: [String]? {
        get { box.fields.distinctFrom }
        set { unique().fields.distinctFrom = newValue }
    }

    public init(
        id: String, category: Topic, difficulty: Difficulty, kind: QuestionKind = .multipleChoice,
        questionText: String, answers: [String], correctAnswerIndex: Int, explanation: String,
        source: String, imageAssetName: String? = nil, stateCode: String? = nil
    ) {
        box = Box(
            Fields(
                id: id, category: category, difficulty: difficulty, kind: kind, questionText: questionText,
                answers: answers, correctAnswerIndex: correctAnswerIndex, explanation: explanation, source: source,
                imageAssetName: imageAssetName, stateCode: stateCode))
    }

    public init(from decoder: any Decoder) throws { box = Box(try Fields(from: decoder)) }
    public func encode(to encoder: any Encoder) throws { try box.fields.encode(to: encoder) }
    public static func == (a: Question, b: Question) -> Bool { a.box === b.box || a.box.fields == b.box.fields }

    public var isSign: Bool { category == .roadSigns }
}

/// Which questions a test section draws from.
public enum SectionPool: String, Codable, Sendable {
    case signs, rules, all

    /// Whether a practice test (and the readiness model of the real test) may ask `q`: the real
    /// test is multiple choice, so typed questions stay in quizzes and cards.
    public func asksOnTest(_ q: Question) -> Bool { q.kind != .fillIn && admits(q) }

    public func admits(_ q: Question) -> Bool {
        switch self {
        case .signs: return q.category == .roadSigns
        case .rules: return q.category != .roadSigns
        case .all: return true
        }
    }
}

public struct TestSection: Codable, Equatable, Sendable {
    public var name: String
    public var pool: SectionPool
    public var questions: Int
    /// The section's own minimum, when it has one (OH 15 of 20 signs).
    public var passCorrect: Int?
    /// A test outside the overall count (NC's 12-sign test).
    public var separate: Bool
    /// A documented blueprint where the real test is known to weight topics differently from the
    /// pool: relative weights per topic (topics left out get none). nil: in proportion to the pool.
    public var topicWeights: [Topic: Double]?

    public init(
        name: String, pool: SectionPool, questions: Int, passCorrect: Int? = nil, separate: Bool = false,
        topicWeights: [Topic: Double]? = nil
    ) {
        self.name = name
        self.pool = pool
        self.questions = questions
        self.passCorrect = passCorrect
        self.separate = separate
        self.topicWeights = topicWeights
    }
}

/// The teen permit knowledge test of one state.
public struct TestFormat: Codable, Equatable, Sendable {
    /// nil where the count is unknown (MI); the bot then uses a 25-question stand-in.
    public var questions: Int?
    public var passCorrect: Int?
    public var timeLimitMinutes: Int?
    public var sections: [TestSection]

    public init(questions: Int?, passCorrect: Int?, timeLimitMinutes: Int? = nil, sections: [TestSection]) {
        self.questions = questions
        self.passCorrect = passCorrect
        self.timeLimitMinutes = timeLimitMinutes
        self.sections = sections
    }

    /// Practice size where the real count is unknown (MI's teen test).
    public static let unknownCountStandIn = 25

    /// Pass mark as a whole percentage (rounded), e.g. 14 of 20 → 70.
    public var passPercent: Int? {
        guard let q = questions, q > 0, let p = passCorrect else { return nil }
        return Int((Double(p) * 100 / Double(q)).rounded())
    }
}

public enum Confidence: String, Codable, Sendable { case high, medium, low }

public struct StateInfo: Codable, Equatable, Sendable {
    public var code: String
    public var name: String
    public var timeZones: [String]
    public var minPermitAge: Double
    public var handbook: String
    public var launch: Bool
    public var confidence: Confidence
    public var note: String?
    public var test: TestFormat

    public init(
        code: String, name: String, timeZones: [String], minPermitAge: Double, handbook: String,
        launch: Bool, confidence: Confidence, note: String?, test: TestFormat
    ) {
        self.code = code
        self.name = name
        self.timeZones = timeZones
        self.minPermitAge = minPermitAge
        self.handbook = handbook
        self.launch = launch
        self.confidence = confidence
        self.note = note
        self.test = test
    }

    public var primaryTimeZone: String { timeZones.first ?? "America/New_York" }
}

public enum SignGroup: String, Codable, CaseIterable, Sendable {
    case regulatory, warning, guide, workZone, school, railroad
    /// Traffic-signal and beacon displays, and pavement markings drawn from above.
    case signal, marking
    /// Road situations drawn from above or the side (a four-way stop, the two-second rule), for lessons.
    case scene
}

public struct SignInfo: Codable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var group: SignGroup
    public var mutcd: String?
    public var meaning: String
    public var rule: String
}

public struct ChangelogEntry: Codable, Equatable, Sendable {
    public var version: String
    public var date: String
    public var notes: String
}

/// Version information of one bank file, for /reload reports and broadcasts.
public struct BankFileInfo: Equatable, Sendable {
    public var file: String
    public var version: String
    public var lastUpdated: String
    public var changelog: [ChangelogEntry]
}

/// Every question bank, loaded and validated; immutable, swapped whole on reload.
public struct Banks: Sendable {
    public let states: [StateInfo]
    public let universal: [Question]
    public let stateQuestions: [String: [Question]]
    public let signs: [SignInfo]
    public let files: [BankFileInfo]
    /// The file each question was read from (`universal/signals.json`, `states/TX.json`), for reports.
    public let questionFiles: [String: String]
    /// Per state, the universal questions its law contradicts (`excludesUniversal`): never in its pool.
    public let excludesUniversal: [String: Set<String>]
    /// Each topic's lessons in file order; `lessonTopics` lists the topics in handbook order.
    public let universalLessons: [Topic: [Lesson]]
    /// Each state's own lessons, by state code, in file order.
    public let stateLessons: [String: [Lesson]]
    /// Version information of the lesson files (apart from `files`, which are the question files).
    public let lessonFiles: [BankFileInfo]
    /// The rules that differ by state (`state-rules.json`), and what each question or card says they are.
    public let stateRules: StateRules
    public let stateRuleTags: StateRuleTags
    private let lessonByID: [String: Lesson]
    private let byID: [String: Question]
    private let stateByCode: [String: StateInfo]
    /// Each state's pool and its ids, built once: the dialogue asks for them on most screens.
    private let pools: [String: [Question]]
    private let poolIDSets: [String: Set<String>]
    private let poolIndexes: [String: [String: Int]]
    /// Topics with lessons, in handbook order, and their lessons in that order: built once (Home
    /// and every lesson screen walk the path).
    public let lessonTopics: [Topic]
    private let universalLessonPath: [Lesson]
    /// Each state's whole path (`lessonPath(forState:)`), built once.
    private let statePaths: [String: [Lesson]]

    public init(
        states: [StateInfo], universal: [Question], stateQuestions: [String: [Question]],
        signs: [SignInfo] = [], files: [BankFileInfo] = [], questionFiles: [String: String] = [:],
        excludesUniversal: [String: [String]] = [:], universalLessons: [Topic: [Lesson]] = [:],
        stateLessons: [String: [Lesson]] = [:], lessonFiles: [BankFileInfo] = [],
        stateRules: StateRules = .empty, stateRuleTags: StateRuleTags = [:]
    ) {
        self.states = states
        self.universal = universal
        self.stateQuestions = stateQuestions
        self.signs = signs
        self.files = files
        self.questionFiles = questionFiles
        let excludes = excludesUniversal.mapValues(Set.init)
        self.excludesUniversal = excludes
        self.universalLessons = universalLessons
        self.stateLessons = stateLessons
        self.lessonFiles = lessonFiles
        self.stateRules = stateRules
        self.stateRuleTags = stateRuleTags
        var lessonByID: [String: Lesson] = [:]
        for list in universalLessons.values { for lesson in list { lessonByID[lesson.id] = lesson } }
        for list in stateLessons.values { for lesson in list { lessonByID[lesson.id] = lesson } }
        self.lessonByID = lessonByID
        var byID: [String: Question] = [:]
        for q in universal { byID[q.id] = q }
        for qs in stateQuestions.values { for q in qs { byID[q.id] = q } }
        self.byID = byID
        self.stateByCode = Dictionary(states.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        var pools: [String: [Question]] = [:]
        for s in states {
            pools[s.code] = Self.buildPool(universal, stateQuestions[s.code] ?? [], excluding: excludes[s.code])
        }
        self.pools = pools
        self.poolIDSets = pools.mapValues { Set($0.map(\.id)) }
        self.poolIndexes = pools.mapValues {
            Dictionary($0.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let lessonTopics = Topic.allCases.filter { universalLessons[$0]?.isEmpty == false }
        self.lessonTopics = lessonTopics
        self.universalLessonPath = lessonTopics.flatMap { universalLessons[$0] ?? [] }
        self.statePaths = stateLessons.filter { !$0.value.isEmpty }.mapValues {
            Self.weave($0, into: lessonTopics, universalLessons)
        }
    }

    public func question(_ id: String) -> Question? { byID[id] }
    public func state(_ code: String) -> StateInfo? { stateByCode[code] }
    public var questionCount: Int { byID.count }

    /// Everything a learner in `stateCode` can be asked: universal (less what the state's law
    /// contradicts, `excludesUniversal`) plus that state's own. Every quiz, practice test, topic,
    /// review, card and readiness figure of a state draws from this.
    public func pool(for stateCode: String?) -> [Question] {
        guard let code = stateCode else { return universal }
        return pools[code] ?? Self.buildPool(universal, stateQuestions[code] ?? [], excluding: excludesUniversal[code])
    }

    static func buildPool(_ universal: [Question], _ own: [Question], excluding: Set<String>?) -> [Question] {
        guard let excluding, !excluding.isEmpty else { return universal + own }
        return universal.filter { !excluding.contains($0.id) } + own
    }

    /// A learner's lesson path: the topics' lessons in handbook order, with their state's own
    /// lessons woven in, one after each topic from road signs on (see `weave`).
    public func lessonPath(forState code: String?) -> [Lesson] {
        guard let code, let own = stateLessons[code], !own.isEmpty else { return universalLessonPath }
        return statePaths[code] ?? Self.weave(own, into: lessonTopics, universalLessons)
    }

    /// A teen's real test is written from their state's handbook, and the general lessons run to
    /// about sixty: with the state's lessons last, two weeks of study might never reach their own
    /// state's permit rules, alcohol limit or phone law. So the first comes right after road signs
    /// (the second day at four lessons a day) and the others one after each following topic.
    static func weave(_ own: [Lesson], into topics: [Topic], _ universalLessons: [Topic: [Lesson]]) -> [Lesson] {
        var path: [Lesson] = []
        var left = own[...]
        for topic in topics {
            path += universalLessons[topic] ?? []
            if let next = left.popFirst() { path.append(next) }
        }
        return path + left
    }
    public func lessons(for topic: Topic) -> [Lesson] { universalLessons[topic] ?? [] }
    public func lessons(forState code: String) -> [Lesson] { stateLessons[code] ?? [] }
    public func lesson(_ id: String) -> Lesson? { lessonByID[id] }
    /// Every lesson: the topics' in handbook order, then the states' by code.
    public var allLessons: [Lesson] {
        universalLessonPath + stateLessons.keys.sorted().flatMap { stateLessons[$0]! }
    }

    /// Where each question stands in `pool(for:)` (nil for a state without a built pool).
    public func poolPositions(for stateCode: String?) -> [String: Int]? { stateCode.flatMap { poolIndexes[$0] } }

    /// The ids of `pool(for:)`, for membership tests.
    public func poolIDs(for stateCode: String?) -> Set<String> {
        stateCode.flatMap { poolIDSets[$0] } ?? Set(pool(for: stateCode).map(\.id))
    }
}
