import Foundation
import JSONCoding

/// One thing wrong in the banks, located by file, question (or state/sign) id and field.
public struct BankProblem: Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var id: String
    public var field: String
    public var message: String

    public init(file: String, id: String, field: String, message: String) {
        self.file = file
        self.id = id
        self.field = field
        self.message = message
    }

    public var description: String { "\(file): \(id): \(field): \(message)" }
}

/// The raw inputs of a bank load: file contents by path relative to Banks/, and the sign
/// picture file names that exist. Reading them from disk is the caller's job (TutorCore does no I/O).
public struct BankSources: Sendable {
    public var files: [String: Data]
    public var signPictures: Set<String>

    public init(files: [String: Data], signPictures: Set<String>) {
        self.files = files
        self.signPictures = signPictures
    }
}

/// Loads and validates every bank at once; a load with any problem yields no banks, so a
/// running bot keeps its old ones.
public enum BankLoader {
    public static let idPattern = #"^[a-z0-9][a-z0-9-]*$"#

    /// Whether `id` matches `idPattern`, byte by byte: building a regular expression for each of
    /// some 4,000 ids was a tenth of a bank load.
    public static func isValidID(_ id: String) -> Bool {
        var first = true
        for b in id.utf8 {
            switch b {
            case 0x61...0x7A, 0x30...0x39: break  // a-z 0-9
            case 0x2D where !first: break  // -
            default: return false
            }
            first = false
        }
        return !first
    }
    /// The single files of Banks/ a load reads (`state-rules.json` and `lessons/retired-ids.json` may be absent).
    public static let files = ["states.json", "signs.json", "state-rules.json", "lessons/retired-ids.json"]
    /// The folders of Banks/ whose `*.json` files a load reads.
    public static let folders = ["universal", "states", "lessons/universal", "lessons/states"]

    public static func load(_ sources: BankSources) -> (banks: Banks?, problems: [BankProblem]) {
        var p = Problems()
        let states = loadStates(sources, &p)
        let knownStates = Set(states.map(\.code))
        let signs = loadSigns(sources, &p)
        let signIDs = Set(signs.map(\.id))
        let stateRules = loadStateRules(sources, states: states, &p)
        var tags: StateRuleTags = [:]
        var infos: [BankFileInfo] = []

        // Universal questions live in one file per handbook chapter (`universal/<topic>.json`), so
        // each chapter can be written and reviewed as a whole; a question's `category` decides its topic.
        var universal: [Question] = []
        var fileOf: [String: String] = [:]
        let universalFiles = sources.files.keys.filter { $0.hasPrefix("universal/") }.sorted()
        if universalFiles.isEmpty { p.add("universal/", "-", "file", "no universal question files (universal/*.json)") }
        for name in universalFiles {
            if let (info, qs, excludes) = loadQuestionFile(
                name, sources.files[name]!, stateCode: nil, signIDs: signIDs,
                rules: stateRules, &tags, &p)
            {
                if excludes != nil {
                    p.add(name, "-", "excludesUniversal", "only state files exclude universal questions")
                }
                universal += qs
                infos.append(info)
                for q in qs where fileOf[q.id] == nil { fileOf[q.id] = name }
            }
        }
        var byState: [String: [Question]] = [:]
        var excludes: [String: [String]] = [:]
        for name in sources.files.keys.sorted() where name.hasPrefix("states/") {
            let code = String(name.dropFirst("states/".count).prefix(while: { $0 != "." }))
            guard name == "states/\(code).json", code.count == 2, code == code.uppercased() else {
                p.add(name, "-", "file", "state files are named states/XX.json with an upper-case state code")
                continue
            }
            guard knownStates.contains(code) else {
                p.add(name, "-", "stateCode", "unknown state \(code) (not in states.json)")
                continue
            }
            if let (info, qs, excluded) = loadQuestionFile(
                name, sources.files[name]!, stateCode: code, signIDs: signIDs,
                rules: stateRules, &tags, &p)
            {
                byState[code] = qs
                infos.append(info)
                if let excluded { excludes[code] = excluded }
                for q in qs where fileOf[q.id] == nil { fileOf[q.id] = name }
            }
        }
        checkDuplicateIDs(universal: universal, byState: byState, fileOf: fileOf, &p)
        var questions: [String: Question] = [:]
        for q in universal { questions[q.id] = q }
        for qs in byState.values { for q in qs { questions[q.id] = q } }
        checkExcludes(excludes, questions, &p)
        // What the table says a state's law contradicts joins what its file lists by hand.
        for (code, ids) in excludesFromTable(universal, tags, stateRules) {
            let listed = Set(excludes[code] ?? [])
            excludes[code, default: []] += ids.filter { !listed.contains($0) }
        }
        let retired = loadRetired(sources, questions, &p)
        let lessons = loadLessons(
            sources,
            LessonContext(
                knownStates: knownStates, signIDs: signIDs, questions: questions,
                excludes: excludes.mapValues(Set.init), retired: retired,
                stateRules: stateRules), &p)
        if !p.list.isEmpty { return (nil, p.list) }
        tags.merge(lessons.tags) { question, _ in question }
        let banks = Banks(
            states: states, universal: universal, stateQuestions: byState, signs: signs, files: infos,
            questionFiles: fileOf, excludesUniversal: excludes, universalLessons: lessons.byTopic,
            stateLessons: lessons.byState, lessonFiles: lessons.files,
            stateRules: stateRules, stateRuleTags: tags)
        return (banks, [])
    }

    // MARK: - states.json

    static func loadStates(_ sources: BankSources, _ p: inout Problems) -> [StateInfo] {
        let file = "states.json"
        guard let root = parse(file, sources.files[file], &p) else { return [] }
        _ = fileInfo(file, root, &p)
        guard let list = root["states"]?.array else {
            p.add(file, "-", "states", "missing or not an array")
            return []
        }
        var out: [StateInfo] = []
        var seen = Set<String>()
        for (i, v) in list.enumerated() {
            let f = Fields(file: file, id: v["code"]?.string ?? "#\(i)", value: v)
            let code = f.string("code", &p) ?? ""
            if !code.isEmpty && (code.count != 2 || code != code.uppercased()) {
                f.bad("code", "must be a two-letter upper-case code", &p)
            }
            if !seen.insert(code).inserted { f.bad("code", "duplicate state code", &p) }
            let name = f.string("name", &p) ?? ""
            let zones = f.stringArray("timeZones", &p) ?? []
            if zones.isEmpty { f.bad("timeZones", "needs at least one time zone", &p) }
            for z in zones where TimeZone(identifier: z) == nil { f.bad("timeZones", "unknown time zone \(z)", &p) }
            let age = f.number("minPermitAge", &p) ?? 0
            let handbook = f.string("handbook", &p) ?? ""
            let launch = v["launch"]?.bool ?? false
            let conf =
                Confidence(rawValue: v["confidence"]?.string ?? "")
                ?? {
                    f.bad("confidence", "must be high, medium or low", &p)
                    return .low
                }()
            let note = v["note"]?.string
            guard let test = loadTest(f, v["test"], &p) else { continue }
            out.append(
                StateInfo(
                    code: code, name: name, timeZones: zones, minPermitAge: age, handbook: handbook,
                    launch: launch, confidence: conf, note: note, test: test))
        }
        return out
    }

    static func loadTest(_ f: Fields, _ v: JSONValue?, _ p: inout Problems) -> TestFormat? {
        guard let v, v.object != nil else {
            f.bad("test", "missing or not an object", &p)
            return nil
        }
        let questions = v["questions"]?.int
        if questions == nil && v["questions"]?.isNull == false {
            f.bad("test.questions", "must be an integer or null", &p)
        }
        let pass = v["passCorrect"]?.int
        let limit = v["timeLimitMinutes"]?.int
        var sections: [TestSection] = []
        for (i, s) in (v["sections"]?.array ?? []).enumerated() {
            let field = "test.sections[\(i)]"
            guard let pool = SectionPool(rawValue: s["pool"]?.string ?? "") else {
                f.bad("\(field).pool", "must be signs, rules or all", &p)
                continue
            }
            // A state whose question count is unknown (MI) practises on a stand-in of that size.
            let count =
                s["questions"]?.int
                ?? (questions == nil && s["questions"]?.isNull != false ? TestFormat.unknownCountStandIn : nil)
            guard let n = count, n > 0 else {
                f.bad("\(field).questions", "must be a positive integer", &p)
                continue
            }
            let sp = s["passCorrect"]?.int
            if let sp, sp > n || sp < 0 {
                f.bad("\(field).passCorrect", "\(sp) is more than the section's \(n) questions", &p)
            }
            var weights: [Topic: Double]?
            if let w = s["topicWeights"] {
                guard let obj = w.object else {
                    f.bad("\(field).topicWeights", "must be an object of topic: weight", &p)
                    continue
                }
                weights = [:]
                for (k, v) in obj {
                    guard let t = Topic(rawValue: k), pool.admitsTopic(t) else {
                        f.bad("\(field).topicWeights", "\(k) is not a topic this section draws from", &p)
                        continue
                    }
                    guard let d = v.double, d >= 0 else {
                        f.bad("\(field).topicWeights.\(k)", "must be a number ≥ 0", &p)
                        continue
                    }
                    weights?[t] = d
                }
            }
            sections.append(
                TestSection(
                    name: s["name"]?.string ?? pool.rawValue, pool: pool, questions: n,
                    passCorrect: sp, separate: s["separate"]?.bool ?? false, topicWeights: weights))
        }
        if sections.isEmpty { f.bad("test.sections", "needs at least one section", &p) }
        if let q = questions {
            let sum = sections.filter { !$0.separate }.reduce(0) { $0 + $1.questions }
            if sum != q { f.bad("test.sections", "sections add up to \(sum) questions, the test has \(q)", &p) }
            if let pass, pass > q || pass <= 0 { f.bad("test.passCorrect", "\(pass) is not between 1 and \(q)", &p) }
        }
        return TestFormat(questions: questions, passCorrect: pass, timeLimitMinutes: limit, sections: sections)
    }

    // MARK: - signs.json

    static func loadSigns(_ sources: BankSources, _ p: inout Problems) -> [SignInfo] {
        let file = "signs.json"
        guard sources.files[file] != nil else { return [] }
        guard let root = parse(file, sources.files[file], &p) else { return [] }
        _ = fileInfo(file, root, &p)
        var out: [SignInfo] = []
        var seen = Set<String>()
        for (i, v) in (root["signs"]?.array ?? []).enumerated() {
            let f = Fields(file: file, id: v["id"]?.string ?? "#\(i)", value: v)
            guard let id = f.string("id", &p) else { continue }
            if !seen.insert(id).inserted { f.bad("id", "duplicate sign id", &p) }
            guard let group = SignGroup(rawValue: v["group"]?.string ?? "") else {
                f.bad("group", "unknown group \(v["group"]?.string ?? "null")", &p)
                continue
            }
            if !sources.signPictures.contains("\(id).png") { f.bad("id", "no picture signs/\(id).png", &p) }
            out.append(
                SignInfo(
                    id: id, name: f.string("name", &p) ?? "", group: group, mutcd: v["mutcd"]?.string,
                    meaning: f.string("meaning", &p) ?? "", rule: f.string("rule", &p) ?? ""))
        }
        return out
    }

    // MARK: - question files

    static func loadQuestionFile(
        _ file: String, _ data: Data, stateCode: String?, signIDs: Set<String>,
        rules: StateRules, _ tags: inout StateRuleTags,
        _ p: inout Problems
    ) -> (BankFileInfo, [Question], excludes: [String]?)? {
        guard let root = parse(file, data, &p) else { return nil }
        let info = fileInfo(file, root, &p)
        if let code = stateCode, root["stateCode"]?.string != code {
            p.add(file, "-", "stateCode", "must be \"\(code)\" to match the file name")
        }
        guard let list = root["questions"]?.array else {
            p.add(file, "-", "questions", "missing or not an array")
            return nil
        }
        var out: [Question] = []
        for (i, v) in list.enumerated() {
            guard let q = loadQuestion(file, i, v, stateCode: stateCode, signIDs: signIDs, &p) else { continue }
            out.append(q)
            if let tagged = ruleTags(v, Fields(file: file, id: q.id, value: v), rules, &p) { tags[q.id] = tagged }
        }
        // Universal questions this state's law contradicts: never asked there.
        let excludes =
            root["excludesUniversal"] == nil
            ? nil
            : Fields(file: file, id: "-", value: root).stringArray("excludesUniversal", &p) ?? []
        return (info, out, excludes)
    }

    static func loadQuestion(
        _ file: String, _ index: Int, _ v: JSONValue, stateCode: String?,
        signIDs: Set<String>, _ p: inout Problems
    ) -> Question? {
        let before = p.list.count
        let f = Fields(file: file, id: v["id"]?.string ?? "#\(index + 1)", value: v)
        let id = f.string("id", &p) ?? ""
        if !id.isEmpty {
            if !isValidID(id) { f.bad("id", "use only a-z, 0-9 and -", &p) }
            let prefix = (stateCode?.lowercased() ?? "u") + "-"
            if !id.hasPrefix(prefix) { f.bad("id", "must start with \"\(prefix)\"", &p) }
        }
        let category = Topic(rawValue: v["category"]?.string ?? "")
        if category == nil { f.bad("category", "unknown category \(v["category"]?.string ?? "null")", &p) }
        if category == .stateSpecific && stateCode == nil {
            f.bad("category", "stateSpecific questions belong in a state file", &p)
        }
        let difficulty = Difficulty(rawValue: v["difficulty"]?.string ?? "")
        if difficulty == nil { f.bad("difficulty", "must be easy, medium or hard", &p) }
        let kindRaw = v["kind"]?.string ?? "multipleChoice"
        let kind = QuestionKind(rawValue: kindRaw)
        if kind == nil { f.bad("kind", "unknown kind \(kindRaw)", &p) }
        let text = f.string("questionText", &p) ?? ""
        let answers = f.stringArray("answers", &p) ?? []
        if v["answers"]?.array != nil {
            if kind == .fillIn {
                if answers.count != 1 {
                    f.bad("answers", "a fillIn question has exactly one canonical answer, has \(answers.count)", &p)
                }
            } else if !(2...4).contains(answers.count) {
                f.bad("answers", "needs 2 to 4 answers, has \(answers.count)", &p)
            }
            if answers.contains(where: isBlank) { f.bad("answers", "an answer is empty", &p) }
            let normalized = answers.map { trimmed($0).lowercased() }
            if Set(normalized).count != normalized.count { f.bad("answers", "two answers are the same", &p) }
            if kind == .trueFalse && answers != ["True", "False"] {
                f.bad("answers", "a trueFalse question has answers [\"True\", \"False\"]", &p)
            }
        }
        let correct = v["correctAnswerIndex"]?.int
        if correct == nil {
            f.bad("correctAnswerIndex", "missing or not an integer", &p)
        } else if let c = correct, !answers.indices.contains(c) {
            f.bad("correctAnswerIndex", "\(c) is out of range for \(answers.count) answers", &p)
        }
        let explanation = f.string("explanation", &p) ?? ""
        let source = f.string("source", &p) ?? ""
        let image = v["imageAssetName"]?.string
        if let image, !signIDs.contains(image) { f.bad("imageAssetName", "no sign \"\(image)\" in signs.json", &p) }
        var accepted: [String]?
        if let list = v["acceptedAnswers"] {
            accepted = f.stringArray("acceptedAnswers", &p)
            if kind != .fillIn { f.bad("acceptedAnswers", "only fillIn questions have accepted answers", &p) }
            if list.array?.isEmpty == true { accepted = nil }
        }
        var distinct: [String]?
        if v["distinctFrom"] != nil { distinct = f.stringArray("distinctFrom", &p) }
        guard p.list.count == before, let category, let difficulty, let kind, let correct else { return nil }
        var q = Question(
            id: id, category: category, difficulty: difficulty, kind: kind, questionText: text,
            answers: answers, correctAnswerIndex: correct, explanation: explanation, source: source,
            imageAssetName: image, stateCode: stateCode)
        q.acceptedAnswers = accepted
        q.distinctFrom = distinct
        return q
    }

    // MARK: - across files

    static func checkDuplicateIDs(
        universal: [Question], byState: [String: [Question]], fileOf: [String: String],
        _ p: inout Problems
    ) {
        var seen = Set<String>()
        for q in universal + byState.keys.sorted().flatMap({ byState[$0]! }) where !seen.insert(q.id).inserted {
            let first = fileOf[q.id] ?? "?"
            let file = q.stateCode.map { "states/\($0).json" } ?? first
            p.add(file, q.id, "id", "duplicate id (also in \(first))")
        }
    }

}
