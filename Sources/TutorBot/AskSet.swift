import Foundation
import JSONCoding
import TutorCore
import TutorStore

/// A set of typed questions with the cards that answer them (`Tests/AskSet/*.json`), and how
/// well the ask index answers them: the regression test, the bench and `permitready ask --set`
/// all read it through here.
public struct AskSetItem: Sendable {
    public var question: String
    /// The learner's state.
    public var state: String
    /// Every card that answers it; empty: off-topic, it must be declined.
    public var accept: Set<String>
    /// The state whose rule must answer it, when the answer differs by state.
    public var stateSpecific: String?
    public var file: String

    public var isOffTopic: Bool { accept.isEmpty }
    /// Half the set is for tuning, half held out, fixed by the question's text (FNV-1a), so
    /// adding questions never moves old ones between the halves.
    public var isHeldOut: Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in question.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash % 2 == 1
    }
}

public struct AskSetReport: Sendable {
    public struct Miss: Sendable {
        public var item: AskSetItem
        public var got: AskLookup
    }
    public var onTopic = 0, answeredRight = 0
    public var offTopic = 0, declined = 0
    public var stateSpecific = 0, stateRight = 0
    public var misses: [Miss] = []

    public var precision: Double { onTopic == 0 ? 1 : Double(answeredRight) / Double(onTopic) }
    public var declineRate: Double { offTopic == 0 ? 1 : Double(declined) / Double(offTopic) }
    public var stateRate: Double { stateSpecific == 0 ? 1 : Double(stateRight) / Double(stateSpecific) }

    public var summary: String {
        String(
            format:
                "precision at 1 %.1f%% (%d/%d) · off-topic declined %.1f%% (%d/%d) · state's own rule %.1f%% (%d/%d)",
            precision * 100, answeredRight, onTopic, declineRate * 100, declined, offTopic, stateRate * 100, stateRight,
            stateSpecific)
    }
}

public enum AskSetError: Error, CustomStringConvertible {
    case noItems(file: String)
    case badItem(file: String, index: Int)
    public var description: String {
        switch self {
        case .noItems(let file): return "\(file): no \"items\" array"
        case .badItem(let file, let index): return "\(file): items[\(index)]: needs \"q\", \"state\" and \"accept\""
        }
    }
}

public enum AskSet {
    /// Reads every `*.json` set in `directory`.
    public static func load(_ directory: String) throws -> [AskSetItem] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".json") }
            .sorted()
        var items: [AskSetItem] = []
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(directory)/\(name)"))
            guard let rows = try JSONValue.parse(data)["items"]?.array else { throw AskSetError.noItems(file: name) }
            for (n, row) in rows.enumerated() {
                guard let q = row["q"]?.string, let state = row["state"]?.string, let accept = row["accept"]?.array
                else {
                    throw AskSetError.badItem(file: name, index: n)
                }
                items.append(
                    AskSetItem(
                        question: q, state: state, accept: Set(accept.compactMap(\.string)),
                        stateSpecific: row["stateSpecific"]?.string, file: name))
            }
        }
        return items
    }

    /// A card's text as the bot would quote it, on one line (for `permitready ask`).
    /// What the learner would read (`state`: the state answered for, whose rule a general card says).
    public static func text(of ref: AskRef, banks: Banks, state: String? = nil) -> String {
        switch ref.kind {
        case .card:
            let info = state.flatMap(banks.state)
            return AskQuizPicker.card(ref.raw, banks: banks)?.card.text(for: info, rules: banks.stateRules) ?? "?"
        case .question:
            guard let q = banks.question(ref.id) else { return "?" }
            return "\(q.questionText) → \(AskCorpus.answerText(q)). \(q.explanation)"
        case .sign: return banks.signs.first { $0.id == ref.id }.map { "\($0.name): \($0.meaning)" } ?? "?"
        case .state:
            guard let s = banks.state(ref.id) else { return "?" }
            let count =
                s.test.questions.map { "\($0) questions, \(s.test.passCorrect ?? 0) right to pass" }
                ?? "count not published"
            let age = StateRules.format(s.minPermitAge)
            return "\(s.name) permit test card: \(count); permit at \(age)"
                + (banks.stateRules.entry("permitAge", state: s.code)?.detail.map { " (\($0))" } ?? "")
        case .rule:
            guard let (code, group) = ref.rule, let s = banks.state(code) else { return "?" }
            return "📍 " + banks.stateRules.sentences(group: group, state: s).joined(separator: " 📍 ")
        }
    }

    public static func evaluate(_ items: [AskSetItem], index: AskIndex) throws -> AskSetReport {
        var report = AskSetReport()
        // The state a card belongs to (`l-mo-4-4`, `mo-035`, `state:MO` → MO), nil for every state's.
        let stateOf = Dictionary(index.corpus.documents.map { ($0.ref, $0.stateCode) }, uniquingKeysWith: { a, _ in a })
        for item in items {
            let got = try index.lookUp(item.question, learnerState: item.state)
            if item.isOffTopic {
                report.offTopic += 1
                if got.best == nil { report.declined += 1 } else { report.misses.append(.init(item: item, got: got)) }
                continue
            }
            report.onTopic += 1
            // A state's rule from the table is right where the card expected states that rule.
            let right =
                got.best.map { best in
                    item.accept.contains(best.raw)
                        || best.rule.map { r in
                            item.accept.contains { index.corpus.ruleTagged[r.rule]?.contains($0) == true }
                        } == true
                } ?? false
            if right { report.answeredRight += 1 } else { report.misses.append(.init(item: item, got: got)) }
            if let specific = item.stateSpecific {
                report.stateSpecific += 1
                // A general card saying the state's rule (📍 In Ohio, …) is answered from its handbook.
                if let best = got.best,
                    stateOf[best] ?? nil == specific
                        || index.corpus.saysTheRuleOf[best.raw]?.contains(specific) == true && got.stateCode == specific
                {
                    report.stateRight += 1
                }
            }
        }
        return report
    }
}
