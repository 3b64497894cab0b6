import Foundation
import JSONCoding

/// What a lesson teaches: one handbook topic (read in every state) or one state's own rules.
public enum LessonScope: Hashable, Sendable {
    case topic(Topic)
    case state(String)

    /// The file the lesson is read from: `lessons/universal/<topic>.json` or `lessons/states/XX.json`.
    public var file: String {
        switch self {
        case .topic(let t): return "lessons/universal/\(t.rawValue).json"
        case .state(let code): return "lessons/states/\(code).json"
        }
    }

    public var topic: Topic? {
        if case .topic(let t) = self { return t }
        return nil
    }
    public var stateCode: String? {
        if case .state(let c) = self { return c }
        return nil
    }

    /// The prefix of its lessons' ids: `l-roadsigns-`, `l-ca-`.
    var idPrefix: String {
        switch self {
        case .topic(let t): return "l-\(t.rawValue.lowercased())-"
        case .state(let code): return "l-\(code.lowercased())-"
        }
    }
}

/// One screen of a lesson: a single idea in plain text, with its picture and source.
public struct LessonCard: Equatable, Sendable {
    public var id: String
    /// Plain text (the bot escapes it); `\n` starts a new line. At most 450 characters.
    public var text: String
    /// A picture id from `signs.json`, or nil.
    public var imageAssetName: String?
    public var source: String
    /// Set on a general card whose rule differs by state: what the learner's state says, in place of a hedge.
    public var stateRule: CardStateRule?
    /// Questions a teen would type that this card answers ("can i turn right on red"): what
    /// "ask the tutor" matches typed questions against, besides the card's own words.
    public var asks: [String] = []

    public init(
        id: String, text: String, imageAssetName: String? = nil, source: String, stateRule: CardStateRule? = nil
    ) {
        self.id = id
        self.text = text
        self.imageAssetName = imageAssetName
        self.source = source
        self.stateRule = stateRule
    }
}

/// A short lesson read before the questions test it: 3-6 cards, then 3-5 check questions.
public struct Lesson: Equatable, Sendable {
    public var id: String
    public var title: String
    public var scope: LessonScope
    public var cards: [LessonCard]
    /// Bank questions (multiple choice or true/false) asked right after the cards.
    public var checkQuestionIds: [String]
    /// Every bank question the cards teach, the check questions included.
    public var teaches: [String]

    public init(
        id: String, title: String, scope: LessonScope, cards: [LessonCard], checkQuestionIds: [String],
        teaches: [String]
    ) {
        self.id = id
        self.title = title
        self.scope = scope
        self.cards = cards
        self.checkQuestionIds = checkQuestionIds
        self.teaches = teaches
    }

    /// The topic of a universal lesson (nil for a state's).
    public var topic: Topic? { scope.topic }
    /// The state of a state lesson (nil for a universal one).
    public var stateCode: String? { scope.stateCode }
}

/// Reads and validates `lessons/universal/<topic>.json` and `lessons/states/XX.json`, in the
/// question loader's style: every problem as `file: id: field: message`, none stopping the rest.
extension BankLoader {
    public static let lessonsPerTopicFile = 2...5
    public static let lessonsPerStateFile = 2...4
    public static let cardsPerLesson = 3...6
    public static let checksPerLesson = 3...5
    public static let maxCardCharacters = 450
    public static let maxCardAsks = 8
    public static let maxAskCharacters = 120

    /// What lessons are checked against: the questions, signs and states already loaded.
    struct LessonContext {
        let knownStates: Set<String>
        let signIDs: Set<String>
        let questions: [String: Question]
        /// Per state, the universal questions it never asks (`excludesUniversal`).
        let excludes: [String: Set<String>]
        /// Retired question ids and the question each was merged into (nil: removed).
        var retired: [String: String?] = [:]
        /// The rules that differ by state, for cards' `stateRule` and `stateRules` tags.
        var stateRules: StateRules = .empty

        /// "no question x", or what became of it.
        func missing(_ id: String) -> String {
            guard let kept = retired[id] else { return "no question \(id)" }
            return kept.map { "\(id) was retired (merged into \($0))" } ?? "\(id) was retired (removed)"
        }
    }

    /// `lessons/retired-ids.json` (optional): `{"retired id": "id of the question kept" or null}`.
    /// A retired id is never used again, and a merge leads to a question that exists.
    static func loadRetired(_ sources: BankSources, _ questions: [String: Question], _ p: inout Problems) -> [String:
        String?]
    {
        let file = "lessons/retired-ids.json"
        guard sources.files[file] != nil, let root = parse(file, sources.files[file], &p) else { return [:] }
        var out: [String: String?] = [:]
        for (id, value) in root.object!.sorted(by: { $0.key < $1.key }) {
            if value.isNull {
                out[id] = .some(nil)
            } else if let kept = value.string {
                out[id] = kept
            } else {
                p.add(file, id, "kept", "must be the id of the question kept, or null")
                continue
            }
            if questions[id] != nil {
                p.add(file, id, "id", "retired, but a question still uses this id (ids are never reused)")
            }
        }
        for (id, kept) in out.sorted(by: { $0.key < $1.key }) {
            var next = kept
            var hops = 0
            while let n = next, questions[n] == nil, hops <= out.count {
                next = out[n] ?? nil
                hops += 1
            }
            if let kept, next.map({ questions[$0] == nil }) ?? true {
                p.add(file, id, "kept", "no question \(kept) (nor a question it was merged into)")
            }
        }
        return out
    }

    struct LoadedLessons {
        var byTopic: [Topic: [Lesson]] = [:]
        var byState: [String: [Lesson]] = [:]
        var files: [BankFileInfo] = []
        /// Cards' `stateRules` tags, by card id.
        var tags: StateRuleTags = [:]
    }

    static func loadLessons(_ sources: BankSources, _ ctx: LessonContext, _ p: inout Problems) -> LoadedLessons {
        var out = LoadedLessons()
        var seen: [String: String] = [:]  // lesson and card id → the file it was first read from
        for name in sources.files.keys.sorted() {
            let scope: LessonScope
            if name.hasPrefix("lessons/universal/") {
                let base = String(name.dropFirst("lessons/universal/".count).prefix(while: { $0 != "." }))
                guard name == "lessons/universal/\(base).json", let topic = Topic(rawValue: base),
                    topic != .stateSpecific
                else {
                    p.add(
                        name, "-", "file",
                        """
                        universal lesson files are named lessons/universal/<topic>.json after a topic other than \
                        stateSpecific
                        """
                    )
                    continue
                }
                scope = .topic(topic)
            } else if name.hasPrefix("lessons/states/") {
                let code = String(name.dropFirst("lessons/states/".count).prefix(while: { $0 != "." }))
                guard name == "lessons/states/\(code).json", code.count == 2, code == code.uppercased() else {
                    p.add(
                        name, "-", "file",
                        "state lesson files are named lessons/states/XX.json with an upper-case state code")
                    continue
                }
                guard ctx.knownStates.contains(code) else {
                    p.add(name, "-", "stateCode", "unknown state \(code) (not in states.json)")
                    continue
                }
                scope = .state(code)
            } else {
                continue
            }
            guard let (info, lessons) = loadLessonFile(name, sources.files[name]!, scope, ctx, &seen, &out.tags, &p)
            else {
                continue
            }
            out.files.append(info)
            switch scope {
            case .topic(let t): out.byTopic[t] = lessons
            case .state(let c): out.byState[c] = lessons
            }
        }
        return out
    }

    static func loadLessonFile(
        _ file: String, _ data: Data, _ scope: LessonScope, _ ctx: LessonContext,
        _ seen: inout [String: String], _ tags: inout StateRuleTags,
        _ p: inout Problems
    ) -> (BankFileInfo, [Lesson])? {
        guard let root = parse(file, data, &p) else { return nil }
        let info = fileInfo(file, root, &p)
        if root["changelog"]?.array?.isEmpty == true { p.add(file, "-", "changelog", "needs at least one entry") }
        switch scope {
        case .topic(let t):
            if root["topic"]?.string != t.rawValue {
                p.add(file, "-", "topic", "must be \"\(t.rawValue)\" to match the file name")
            }
        case .state(let c):
            if root["stateCode"]?.string != c {
                p.add(file, "-", "stateCode", "must be \"\(c)\" to match the file name")
            }
        }
        guard let list = root["lessons"]?.array else {
            p.add(file, "-", "lessons", "missing or not an array")
            return nil
        }
        let allowed = scope.stateCode == nil ? lessonsPerTopicFile : lessonsPerStateFile
        if !allowed.contains(list.count) {
            p.add(
                file, "-", "lessons",
                """
                \(list.count) lessons; a \(scope.stateCode == nil ? "topic" : "state") file has \
                \(allowed.lowerBound)-\(allowed.upperBound)
                """
            )
        }
        var lessons: [Lesson] = []
        for (i, v) in list.enumerated() {
            if let lesson = loadLesson(file, i, v, scope, ctx, &seen, &tags, &p) { lessons.append(lesson) }
        }
        return (info, lessons)
    }

    static func loadLesson(
        _ file: String, _ index: Int, _ v: JSONValue, _ scope: LessonScope, _ ctx: LessonContext,
        _ seen: inout [String: String], _ tags: inout StateRuleTags, _ p: inout Problems
    ) -> Lesson? {
        let before = p.list.count
        let f = Fields(file: file, id: v["id"]?.string ?? "#\(index + 1)", value: v)
        let id = f.string("id", &p) ?? ""
        if !id.isEmpty { checkLessonID(id, prefix: scope.idPrefix, f, &seen, &p) }
        let title = f.string("title", &p) ?? ""
        var cards: [LessonCard] = []
        if let list = v["cards"]?.array {
            if !cardsPerLesson.contains(list.count) {
                f.bad(
                    "cards",
                    "\(list.count) cards; a lesson has \(cardsPerLesson.lowerBound)-\(cardsPerLesson.upperBound)", &p)
            }
            for (j, c) in list.enumerated() {
                let cf = Fields(file: file, id: c["id"]?.string ?? "\(f.id)#\(j + 1)", value: c)
                let cardID = cf.string("id", &p) ?? ""
                if !cardID.isEmpty { checkLessonID(cardID, prefix: id + "-", cf, &seen, &p) }
                let text = cf.string("text", &p) ?? ""
                let length = text.unicodeScalars.count  // as Python's len(), which the writers' tools use
                if length > maxCardCharacters {
                    cf.bad("text", "\(length) characters; at most \(maxCardCharacters)", &p)
                }
                let source = cf.string("source", &p) ?? ""
                var image: String?
                if let value = c["imageAssetName"], !value.isNull {
                    if let name = value.string {
                        if ctx.signIDs.contains(name) {
                            image = name
                        } else {
                            cf.bad("imageAssetName", "no sign \"\(name)\" in signs.json", &p)
                        }
                    } else {
                        cf.bad("imageAssetName", "must be a sign id or null", &p)
                    }
                }
                let stateRule = loadCardStateRule(c, cf, scope, ctx, &p)
                let asks = c["asks"] == nil ? [] : cf.stringArray("asks", &p) ?? []
                if asks.count > maxCardAsks { cf.bad("asks", "\(asks.count) questions; at most \(maxCardAsks)", &p) }
                for ask in asks where ask.count > maxAskCharacters || isBlank(ask) {
                    cf.bad("asks", "\"\(ask.prefix(30))…\" is empty or over \(maxAskCharacters) characters", &p)
                }
                if let tagged = ruleTags(c, cf, ctx.stateRules, &p) { tags[cardID] = tagged }
                var card = LessonCard(
                    id: cardID, text: text, imageAssetName: image, source: source, stateRule: stateRule)
                card.asks = asks
                cards.append(card)
            }
        } else {
            f.bad("cards", "missing or not an array", &p)
        }
        let checks = f.stringArray("checkQuestionIds", &p) ?? []
        let teaches = f.stringArray("teaches", &p)
        if v["checkQuestionIds"]?.array != nil && !checksPerLesson.contains(checks.count) {
            f.bad(
                "checkQuestionIds",
                """
                \(checks.count) questions; a lesson checks \
                \(checksPerLesson.lowerBound)-\(checksPerLesson.upperBound)
                """,
                &p)
        }
        let taught = Set(teaches ?? [])
        for (n, qid) in checks.enumerated() {
            if checks[..<n].contains(qid) {
                f.bad("checkQuestionIds", "\(qid) is listed twice", &p)
                continue
            }
            guard let q = ctx.questions[qid] else {
                f.bad("checkQuestionIds", ctx.missing(qid), &p)
                continue
            }
            if q.kind == .fillIn {
                f.bad(
                    "checkQuestionIds", "\(qid) is a typed (fillIn) question; checks are multiple choice or true/false",
                    &p)
            }
            if let problem = outOfScope(q, scope) { f.bad("checkQuestionIds", problem, &p) }
            if let problem = excluded(q, scope, ctx) { f.bad("checkQuestionIds", problem, &p) }
            if teaches != nil && !taught.contains(qid) { f.bad("checkQuestionIds", "\(qid) is not in teaches", &p) }
        }
        for (n, qid) in (teaches ?? []).enumerated() {
            if teaches![..<n].contains(qid) {
                f.bad("teaches", "\(qid) is listed twice", &p)
                continue
            }
            guard let q = ctx.questions[qid] else {
                f.bad("teaches", ctx.missing(qid), &p)
                continue
            }
            if let problem = outOfScope(q, scope) { f.bad("teaches", problem, &p) }
        }
        guard p.list.count == before else { return nil }
        return Lesson(
            id: id, title: title, scope: scope, cards: cards, checkQuestionIds: checks, teaches: teaches ?? [])
    }

    /// Ids follow the id pattern, start with their owner's prefix and are unique across all lesson files.
    static func checkLessonID(
        _ id: String, prefix: String, _ f: Fields, _ seen: inout [String: String], _ p: inout Problems
    ) {
        if !isValidID(id) { f.bad("id", "use only a-z, 0-9 and -", &p) }
        if !id.hasPrefix(prefix) { f.bad("id", "must start with \"\(prefix)\"", &p) }
        if let first = seen[id] { f.bad("id", "duplicate id (also in \(first))", &p) } else { seen[id] = f.file }
    }

    /// A topic lesson teaches universal questions; a state lesson its own state's or universal ones.
    static func outOfScope(_ q: Question, _ scope: LessonScope) -> String? {
        guard let own = q.stateCode else { return nil }
        switch scope {
        case .topic: return "\(q.id) is a state question (\(own)); a topic lesson uses universal questions"
        case .state(let code):
            return own == code
                ? nil : "\(q.id) is a \(own) question; a \(code) lesson uses its own state's or universal questions"
        }
    }

    /// A check question is asked wherever the lesson is read: never in a state that excludes it.
    static func excluded(_ q: Question, _ scope: LessonScope, _ ctx: LessonContext) -> String? {
        guard q.stateCode == nil else { return nil }
        switch scope {
        case .state(let code):
            return ctx.excludes[code]?.contains(q.id) == true
                ? "\(q.id) is excluded in \(code) (excludesUniversal)" : nil
        case .topic:
            let states = ctx.excludes.keys.filter { ctx.excludes[$0]!.contains(q.id) }.sorted()
            return states.isEmpty
                ? nil
                : "\(q.id) is excluded in \(states.joined(separator: ", ")) (excludesUniversal), "
                    + "and a topic lesson's checks are asked in every state"
        }
    }
}
