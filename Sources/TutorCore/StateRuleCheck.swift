import Foundation

/// Checks every question and card that says a state rule's value (its `stateRules` tag) against
/// `state-rules.json`: a state's own item must teach its state's value; a general card must hold
/// in every state (a general question that doesn't is left out where it doesn't, at load).
/// `permitready banks lint` prints the summary; `make test` fails on a contradiction.
public enum StateRuleCheck {
    public struct Report: Sendable {
        public var rules: Int
        public var jurisdictions: Int
        /// Values given, and values "not found" (null).
        public var sourced: Int
        public var notFound: Int
        /// Tagged questions and cards checked, and how many tags met a "not found" (nothing to check against).
        public var itemsChecked: Int
        public var uncheckable: Int
        public var problems: [BankProblem]

        /// The one line `banks lint` prints.
        public var summary: String {
            "state rules: \(rules) rules × \(jurisdictions) jurisdictions "
                + "(\(sourced) values sourced, \(notFound) not found), "
                + "\(itemsChecked) questions and cards checked, \(problems.count) contradictions"
        }
    }

    public static func check(_ banks: Banks) -> Report {
        let table = banks.stateRules
        var problems: [BankProblem] = []
        var sourced = 0
        var notFound = 0
        for entries in table.values.values {
            for entry in entries.values { if entry.value == nil { notFound += 1 } else { sourced += 1 } }
        }
        var checked = 0
        var uncheckable = 0
        func compare(_ file: String, _ id: String, _ tags: [String: StateRuleValue], state code: String) {
            for (rule, taught) in tags.sorted(by: { $0.key < $1.key }) {
                guard let entry = table.entry(rule, state: code) else { continue }
                guard let value = entry.value else {
                    uncheckable += 1
                    continue
                }
                if value != taught {
                    problems.append(
                        BankProblem(
                            file: file, id: id, field: "stateRules",
                            message: "teaches \(rule) = \(taught), but \(StateRuleCheck.file) has "
                                + "\(value) for \(code) (\(entry.source))"))
                }
            }
        }
        for q in banks.universal + banks.stateQuestions.keys.sorted().flatMap({ banks.stateQuestions[$0]! }) {
            guard let tags = banks.stateRuleTags[q.id] else { continue }
            checked += 1
            if let code = q.stateCode {
                compare(banks.questionFiles[q.id] ?? "states/\(code).json", q.id, tags, state: code)
            }
        }
        for lesson in banks.allLessons {
            for card in lesson.cards {
                guard let tags = banks.stateRuleTags[card.id] else { continue }
                checked += 1
                let codes = lesson.stateCode.map { [$0] } ?? table.values.keys.sorted()
                for code in codes { compare(lesson.scope.file, card.id, tags, state: code) }
            }
        }
        // The state card's permit age (states.json) is the table's.
        for state in banks.states {
            guard case .number(let age)? = table.value("permitAge", state: state.code), age != state.minPermitAge else {
                continue
            }
            problems.append(
                BankProblem(
                    file: "states.json", id: state.code, field: "minPermitAge",
                    message: "\(StateRules.format(state.minPermitAge)), but \(file) has permitAge "
                        + "\(StateRules.format(age))"))
        }
        return Report(
            rules: table.rules.count, jurisdictions: table.values.count, sourced: sourced, notFound: notFound,
            itemsChecked: checked, uncheckable: uncheckable, problems: problems)
    }

    static let file = BankLoader.stateRulesFile
}
