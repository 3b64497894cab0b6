import Foundation
import Synchronization

/// Where an answer to a typed question comes from: text the banks already hold, never new words.
/// The raw value is the bank's own id (`l-signals-2-3` a lesson card, `u-sig-004` or `mo-012` a
/// question and its explanation), `sign:<id>` a sign, `state:XX` a state's test facts,
/// `rule:XX:<group>` a state's values in the table of rules that differ by state (rules asked
/// together, `StateRules.group`).
public struct AskRef: Hashable, Sendable, Comparable {
    public enum Kind: Sendable { case card, question, sign, state, rule }
    public let raw: String
    public init(_ raw: String) { self.raw = raw }

    public var kind: Kind {
        if raw.hasPrefix("sign:") { return .sign }
        if raw.hasPrefix("state:") { return .state }
        if raw.hasPrefix("rule:") { return .rule }
        return raw.hasPrefix("l-") ? .card : .question
    }
    /// The id inside its bank (the part after `sign:` / `state:`; `XX:<rule>` for a rule).
    public var id: String {
        switch kind {
        case .sign: return String(raw.dropFirst(5))
        case .state: return String(raw.dropFirst(6))
        case .rule: return String(raw.dropFirst(5))
        case .card, .question: return raw
        }
    }
    /// A rule answer's state and rule group.
    public var rule: (state: String, rule: String)? {
        guard kind == .rule else { return nil }
        let parts = id.split(separator: ":", maxSplits: 1).map(String.init)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
    public static func < (a: AskRef, b: AskRef) -> Bool { a.raw < b.raw }
}

/// One searchable piece of the banks, as the index holds it: its terms (see `AskText`), in two
/// fields (a title weighs more than body text), and the state it belongs to (nil: every state).
public struct AskDocument: Sendable {
    public let ref: AskRef
    public let stateCode: String?
    public let topic: Topic?
    public let titleTerms: [String]
    public let bodyTerms: [String]
    /// A lesson card's: the wording of the bank questions it teaches (teens ask the way quiz
    /// questions are put), each question given to the card of its lesson it shares most terms with.
    public internal(set) var askTerms: [String] = []
    /// Every term of the document, for the judge's coverage check.
    public internal(set) var terms: Set<String>
}

/// Everything a typed question is answered from: every lesson card, every question's
/// explanation, every sign and every state's test facts, as terms, with how many documents hold
/// each term (rare terms say more). Built from the banks alone, so it is pure and rebuilt on reload.
public struct AskCorpus: Sendable {
    public let documents: [AskDocument]
    public let documentFrequency: [String: Int]
    /// Terms of 4+ letters by length, as bytes, for typo correction.
    let longTermsByLength: [Int: [(bytes: [UInt8], term: String)]]
    /// The banks' words of 5+ letters by length, as bytes, with their terms (`correct(word:)`).
    let wordsByLength: [Int: [(bytes: [UInt8], term: String)]]
    public let stateCodes: Set<String>
    /// Rule group (`StateRules.group`) → the cards and questions that state one of its rules
    /// (their `stateRules` tags): what a `rule:XX:<group>` answer says in the table's words.
    public let ruleTagged: [String: Set<String>]
    /// A general card that says the state's own rule in place of a hedge (`Card.stateRule`) → the
    /// states whose value the table has: for them its answer is their rule, from their handbook.
    public let saysTheRuleOf: [String: Set<String>]
    /// State names as word sequences ("new", "york") → code, longest first.
    let stateNames: [(words: [String], code: String)]

    public init(banks: Banks) {
        struct Source: Sendable {
            var ref: String
            var state: String?
            var topic: Topic?
            var title: String
            var body: String
            /// A lesson card's `asks`: questions put the way teens type them.
            var asks = ""
            /// A lesson card's title is its lesson's, which may list several subjects ("Schools,
            /// work zones, guide signs"): the card keeps only those its own text is about.
            var titleListsSubjects = false
        }
        var sources: [Source] = []
        for topic in Topic.allCases {
            for lesson in banks.lessons(for: topic) {
                for card in lesson.cards {
                    sources.append(
                        Source(
                            ref: card.id, state: nil, topic: topic, title: lesson.title, body: card.text,
                            asks: card.asks.joined(separator: " "), titleListsSubjects: true))
                }
            }
        }
        for code in banks.stateLessons.keys.sorted() {
            for lesson in banks.lessons(forState: code) {
                for card in lesson.cards {
                    sources.append(
                        Source(
                            ref: card.id, state: code, topic: .stateSpecific, title: lesson.title, body: card.text,
                            asks: card.asks.joined(separator: " "), titleListsSubjects: true))
                }
            }
        }
        for q in banks.universal + banks.stateQuestions.keys.sorted().flatMap({ banks.stateQuestions[$0] ?? [] }) {
            sources.append(
                Source(
                    ref: q.id, state: q.stateCode, topic: q.category, title: q.questionText,
                    body: Self.answerText(q) + " " + q.explanation))
        }
        for sign in banks.signs {
            sources.append(
                Source(
                    ref: "sign:\(sign.id)", state: nil, topic: .roadSigns, title: "\(sign.name) sign",
                    body: "\(sign.group.rawValue) sign. \(sign.meaning) \(sign.rule)"))
        }
        for state in banks.states {
            sources.append(
                Source(
                    ref: "state:\(state.code)", state: state.code, topic: .stateSpecific,
                    title: "\(state.name) permit test",
                    body: Self.stateFacts(state)))
            // Each rule of the table the state has a value for ("In Kentucky, you may turn left on
            // red from a one-way street onto a one-way street…"): a state's law answered even where
            // no card of its own says it.
            // Rules asked together are one answer ("left on red": from a one-way and from a two-way street).
            for group in banks.stateRules.groups {
                let sentences = banks.stateRules.sentences(group: group, state: state)
                guard !sentences.isEmpty else { continue }
                // Titled by the rules it says (no "curfew" where the state's hour is not known).
                let titles = banks.stateRules.rules(inGroup: group)
                    .filter { banks.stateRules.sentence($0.id, state: state) != nil }.map(\.title)
                sources.append(
                    Source(
                        ref: "rule:\(state.code):\(group)", state: state.code, topic: .stateSpecific,
                        title: titles.joined(separator: " "), body: sentences.joined(separator: " ")))
            }
        }
        // Four thousand documents' terms, in a few slices side by side: this runs in every bank load.
        let slices = 4
        let all = sources
        let built = Mutex<[[AskDocument]]>(Array(repeating: [], count: slices))
        let spelled = Mutex<[String: String]>([:])
        DispatchQueue.concurrentPerform(iterations: slices) { slice in
            let range = stride(from: slice, to: all.count, by: slices)
            var cache = AskText.TermCache()
            let part = range.map { i -> AskDocument in
                let source = all[i]
                let b = cache.terms(source.body)
                let a = source.asks.isEmpty ? [] : cache.terms(source.asks)
                let t =
                    source.titleListsSubjects
                    ? Self.subjectsOfTheCard(source.title, cardTerms: Set(b + a), cache: &cache)
                    : cache.terms(source.title)
                var document = AskDocument(
                    ref: AskRef(source.ref), stateCode: source.state, topic: source.topic, titleTerms: t, bodyTerms: b,
                    terms: Set(t + b))
                if !source.asks.isEmpty { document.askTerms = a }
                return document
            }
            built.withLock { $0[slice] = part }
            let words = cache.spelledWords
            spelled.withLock { all in for (word, term) in words { all[word] = term } }
        }
        let parts = built.withLock { $0 }
        var docs: [AskDocument] = []
        docs.reserveCapacity(sources.count)
        for i in sources.indices { docs.append(parts[i % slices][i / slices]) }
        let position = Dictionary(docs.indices.map { (docs[$0].ref.raw, $0) }, uniquingKeysWith: { a, _ in a })
        var asked: [Int: [String]] = [:]
        for lesson in banks.allLessons {
            let cards = lesson.cards.compactMap { position[$0.id] }
            guard !cards.isEmpty else { continue }
            let cardTerms = cards.map { docs[$0].terms }
            for id in lesson.teaches {
                guard let q = position[id] else { continue }
                let wording = docs[q].titleTerms
                let distinct = Set(wording)
                let shared = cardTerms.map { terms in distinct.reduce(0) { $0 + (terms.contains($1) ? 1 : 0) } }
                asked[cards[shared.indices.max { shared[$0] < shared[$1] }!], default: []] += wording
            }
        }
        for (card, wording) in asked { docs[card].askTerms += wording }
        for i in docs.indices where !docs[i].askTerms.isEmpty { docs[i].terms.formUnion(docs[i].askTerms) }
        documents = docs
        var tagged: [String: Set<String>] = [:]
        for (id, rules) in banks.stateRuleTags {
            for rule in rules.keys { tagged[StateRules.group(of: rule), default: []].insert(id) }
        }
        ruleTagged = tagged
        var says: [String: Set<String>] = [:]
        for lessons in banks.universalLessons.values {
            for card in lessons.flatMap(\.cards) {
                guard let rule = card.stateRule?.rule else { continue }
                says[card.id] = Set(
                    banks.states.filter { banks.stateRules.sentence(rule, state: $0) != nil }.map(\.code))
            }
        }
        saysTheRuleOf = says
        var df: [String: Int] = [:]
        for d in docs { for t in d.terms { df[t, default: 0] += 1 } }
        documentFrequency = df
        wordsByLength = Dictionary(
            grouping: spelled.withLock { $0 }.filter { df[$0.value] != nil }.sorted { $0.key < $1.key }
                .map { (bytes: Array($0.key.utf8), term: $0.value) },
            by: { $0.bytes.count })
        longTermsByLength = Dictionary(
            grouping: df.keys.filter { $0.utf8.count >= 4 }.sorted().map { (bytes: Array($0.utf8), term: $0) },
            by: { $0.bytes.count })
        stateCodes = Set(banks.states.map(\.code))
        stateNames = banks.states.map { (AskText.words($0.name), $0.code) }.sorted { $0.words.count > $1.words.count }
    }

    /// A card's title terms: only the subjects of its lesson's title that its own text is about
    /// (`AskText.subjects`). The school card of "Schools, work zones, guide signs" is not about work
    /// zones, and "whats the rule in a work zone" is not answered by it.
    static func subjectsOfTheCard(_ title: String, cardTerms: Set<String>, cache: inout AskText.TermCache) -> [String] {
        let kept = AskText.subjects(of: title, heldBy: cardTerms) { cache.terms($0) }
        return kept.map { $0.flatMap { cache.terms($0) } } ?? cache.terms(title)
    }

    /// The right answer as a learner reads it ("True" for a true/false question).
    public static func answerText(_ q: Question) -> String {
        q.answers.indices.contains(q.correctAnswerIndex) ? q.answers[q.correctAnswerIndex] : ""
    }

    /// A state's test facts in the words a teen asks about them with: how many questions, how
    /// many right to pass, timed or not, the sections, the age, the handbook.
    static func stateFacts(_ s: StateInfo) -> String {
        var parts = [
            "The \(s.name) learner's permit knowledge test at the DMV: how many questions are on the test,",
            "how many questions you need right to pass, the passing score percent.",
        ]
        if let n = s.test.questions, let pass = s.test.passCorrect {
            parts.append("\(n) questions, \(pass) correct to pass.")
        }
        parts.append(
            s.test.timeLimitMinutes.map { "Time limit \($0) minutes, timed." } ?? "How long the test takes, time limit."
        )
        if s.test.sections.count > 1 {
            parts.append("Sections: " + s.test.sections.map(\.name).joined(separator: ", ") + ".")
        }
        parts.append("Minimum permit age: how old you have to be to get a learner's permit, age \(s.minPermitAge).")
        parts.append("Study guide handbook manual: \(s.handbook).")
        return parts.joined(separator: " ")
    }

    /// How much a term says: rare terms a lot, terms in every other card little (BM25's idf).
    public func idf(_ term: String) -> Double { idf(documentFrequency: Double(documentFrequency[term] ?? 0)) }
    public func idf(documentFrequency df: Double) -> Double {
        let n = Double(documents.count)
        return log(1 + (n - df + 0.5) / (df + 0.5))
    }

    /// A misspelt word of 5+ letters ("yeild", "pedestrain", "intersecton") → the bank term within
    /// one edit (a letter added, dropped, changed, or two swapped), the most common if several.
    /// `shortest`: 4 for the stem of a longer word typed ("beems" → "beem" → "beam").
    /// `evenIfKnown`: also a term the banks hold (a typo in a card's `asks`).
    public func correct(_ term: String, shortest: Int = 5, evenIfKnown: Bool = false) -> String? {
        let x = Array(term.utf8)
        guard x.count >= shortest, evenIfKnown || documentFrequency[term] == nil else { return nil }
        return mostCommon(withinOneEditOf: x, in: longTermsByLength)
    }

    /// A misspelt word whose stem is no term ("drivng", "safley", "oncomming") → the term of the
    /// banks' word within one edit of it as typed ("driving" → "driv"), the most common if several.
    public func correct(word: String) -> String? {
        let x = Array(word.utf8)
        guard x.count >= 5 else { return nil }
        return mostCommon(withinOneEditOf: x, in: wordsByLength)
    }

    /// The term of the spelling within one edit of `x` whose term the most documents hold.
    private func mostCommon(withinOneEditOf x: [UInt8], in byLength: [Int: [(bytes: [UInt8], term: String)]])
        -> String?
    {
        var best: (String, Int)?
        for length in (x.count - 1)...(x.count + 1) {
            for candidate in byLength[length] ?? [] where AskCorpus.withinOneEdit(x, candidate.bytes) {
                let df = documentFrequency[candidate.term] ?? 0
                if best == nil || df > best!.1 { best = (candidate.term, df) }
            }
        }
        return best?.0
    }

    static func withinOneEdit(_ x: [UInt8], _ y: [UInt8]) -> Bool {
        if x.count == y.count {
            var first = -1
            var second = -1
            for i in x.indices where x[i] != y[i] {
                if first < 0 { first = i } else if second < 0 { second = i } else { return false }
            }
            if second < 0 { return true }
            return second == first + 1 && x[first] == y[second] && x[second] == y[first]
        }
        let (short, long) = x.count < y.count ? (x, y) : (y, x)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count && short[i] == long[i] { i += 1 }
        return short[i...] == long[(i + 1)...]
    }
}
