import Foundation
import JSONCoding

/// What a question or card says a state rule's value is (`"stateRules": {"adultBAC": 0.08}`), by the
/// item's id. Tags are how the banks are checked against the table: no keyword guessing.
public typealias StateRuleTags = [String: [String: StateRuleValue]]

/// Reads `state-rules.json` and the rule tags and card notes that refer to it, in the loader's style.
extension BankLoader {
    public static let stateRulesFile = "state-rules.json"

    /// The table, validated against `states.json`: every jurisdiction has every rule, each value
    /// of its rule's kind (or null: not found), with a source and the day it was checked. An absent
    /// file is an empty table (small test banks); the shipped banks' test asks for all 51.
    static func loadStateRules(_ sources: BankSources, states: [StateInfo], _ p: inout Problems) -> StateRules {
        let file = stateRulesFile
        guard sources.files[file] != nil, let root = parse(file, sources.files[file], &p) else { return .empty }
        _ = fileInfo(file, root, &p)
        var rules: [StateRule] = []
        for (i, v) in (root["rules"]?.array ?? []).enumerated() {
            let f = Fields(file: file, id: v["id"]?.string ?? "rules#\(i + 1)", value: v)
            guard let id = f.string("id", &p) else { continue }
            guard let kind = StateRuleKind(rawValue: v["kind"]?.string ?? "") else {
                f.bad("kind", "must be one of " + StateRuleKind.allCases.map(\.rawValue).joined(separator: ", "), &p)
                continue
            }
            let says = f.string("says", &p) ?? ""
            if kind != .yesNo && !says.contains("{value}") { f.bad("says", "must contain {value}", &p) }
            if rules.contains(where: { $0.id == id }) { f.bad("id", "duplicate rule", &p) }
            let saysNo = v["saysNo"]?.string
            if kind == .yesNo && saysNo == nil { f.bad("saysNo", "a yes/no rule says both answers", &p) }
            rules.append(
                StateRule(
                    id: id, kind: kind, title: f.string("title", &p) ?? id, says: says, saysNo: saysNo,
                    saysZero: v["saysZero"]?.string))
        }
        if root["rules"]?.array == nil { p.add(file, "-", "rules", "missing or not an array") }
        guard let byState = root["states"]?.object else {
            p.add(file, "-", "states", "missing or not an object")
            return .empty
        }
        let known = Set(states.map(\.code))
        for code in byState.keys.sorted() where !known.contains(code) {
            p.add(file, code, "-", "unknown state (not in states.json)")
        }
        var values: [String: [String: StateRuleEntry]] = [:]
        for code in known.sorted() {
            guard let entries = byState[code]?.object else {
                p.add(file, code, "-", "missing: every state has every rule")
                continue
            }
            for key in entries.keys.sorted() where !rules.contains(where: { $0.id == key }) {
                p.add(file, code, key, "unknown rule")
            }
            for rule in rules {
                guard let v = entries[rule.id] else {
                    p.add(file, code, rule.id, "missing (null value for not found)")
                    continue
                }
                let f = Fields(file: file, id: code, value: v)
                var entry = StateRuleEntry(value: nil, detail: v["detail"]?.string, source: "", checked: "")
                entry.source = Fields(file: file, id: "\(code) \(rule.id)", value: v).string("source", &p) ?? ""
                entry.checked = v["checked"]?.string ?? ""
                if let says = v["says"] {
                    entry.says = says.string
                    if entry.says.map(isBlank) ?? true { f.bad(rule.id, "says must be a sentence", &p) }
                }
                if !isDay(entry.checked) { f.bad(rule.id, "checked must be a day, YYYY-MM-DD", &p) }
                if let raw = v["value"], !raw.isNull {
                    entry.value = ruleValue(raw, rule.kind)
                    if entry.value == nil { f.bad(rule.id, "value must be \(describe(rule.kind)) or null", &p) }
                }
                values[code, default: [:]][rule.id] = entry
            }
        }
        return StateRules(rules: rules, values: values)
    }

    /// A raw JSON value read as a value of `kind`, or nil when it is not one.
    static func ruleValue(_ raw: JSONValue, _ kind: StateRuleKind) -> StateRuleValue? {
        switch kind {
        case .number: return raw.double.map(StateRuleValue.number)
        case .yesNo: return raw.bool.map(StateRuleValue.yesNo)
        case .hours: return raw.string.flatMap { StateRules.isHours($0) ? .hours($0) : nil }
        case .text: return raw.string.flatMap { isBlank($0) ? nil : .text($0) }
        }
    }

    static func describe(_ kind: StateRuleKind) -> String {
        switch kind {
        case .number: return "a number"
        case .yesNo: return "true or false"
        case .hours: return "\"HH:MM-HH:MM\""
        case .text: return "a sentence"
        }
    }

    static func isDay(_ s: String) -> Bool {
        let parts = s.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy(\.isNumber) }
    }

    /// An item's `stateRules` tag, checked: known comparable rules, values of their kind.
    static func ruleTags(_ v: JSONValue, _ f: Fields, _ rules: StateRules, _ p: inout Problems) -> [String:
        StateRuleValue]?
    {
        guard let raw = v["stateRules"] else { return nil }
        guard let object = raw.object, !object.isEmpty else {
            f.bad("stateRules", "must be an object of rule id → the value the item teaches", &p)
            return nil
        }
        var out: [String: StateRuleValue] = [:]
        for (id, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let rule = rules.rule(id) else {
                f.bad("stateRules", "no rule \(id) in \(stateRulesFile)", &p)
                continue
            }
            guard rule.kind.isComparable else {
                f.bad("stateRules", "\(id) is a sentence; only numbers, yes/no and hours are tagged", &p)
                continue
            }
            guard let parsed = ruleValue(value, rule.kind) else {
                f.bad("stateRules", "\(id) must be \(describe(rule.kind))", &p)
                continue
            }
            out[id] = parsed
        }
        return out.isEmpty ? nil : out
    }

    /// A card's `stateRule`: `{"rule": id, "hedge": "what it says where the state's value is not found"}`.
    /// Only a general card has one (a state's own card says its state's rule itself).
    static func loadCardStateRule(
        _ c: JSONValue, _ f: Fields, _ scope: LessonScope, _ ctx: LessonContext,
        _ p: inout Problems
    ) -> CardStateRule? {
        guard let raw = c["stateRule"] else { return nil }
        let inner = Fields(file: f.file, id: f.id, value: raw)
        guard raw.object != nil, let rule = inner.string("rule", &p), let hedge = inner.string("hedge", &p) else {
            f.bad("stateRule", "must be {\"rule\": id, \"hedge\": sentence}", &p)
            return nil
        }
        if scope.stateCode != nil { f.bad("stateRule", "only a general lesson's card says each state's rule", &p) }
        if ctx.stateRules.rule(rule) == nil && !ctx.stateRules.rules.isEmpty {
            f.bad("stateRule", "no rule \(rule) in \(stateRulesFile)", &p)
        }
        return CardStateRule(rule: rule, hedge: hedge)
    }

    /// Universal questions a state never asks because they teach a value its law contradicts: a
    /// question tagged `{"rightOnRed": true}` is left out where the table says right on red is banned.
    /// Where the state's value is not found the question stays (it is what most states teach).
    static func excludesFromTable(_ universal: [Question], _ tags: StateRuleTags, _ rules: StateRules) -> [String:
        [String]]
    {
        var out: [String: [String]] = [:]
        for q in universal {
            guard let tagged = tags[q.id] else { continue }
            for code in rules.values.keys.sorted() {
                let contradicts = tagged.contains { id, value in
                    rules.value(id, state: code).map { $0 != value } ?? false
                }
                if contradicts { out[code, default: []].append(q.id) }
            }
        }
        return out
    }

    /// `excludesUniversal` lists existing universal questions, each once.
    static func checkExcludes(_ excludes: [String: [String]], _ questions: [String: Question], _ p: inout Problems) {
        for code in excludes.keys.sorted() {
            let list = excludes[code]!
            for (n, id) in list.enumerated() {
                let problem: String? =
                    if list[..<n].contains(id) { "\(id) is listed twice" } else if let q = questions[id] {
                        q.stateCode.map { "\(id) is a \($0) question, not a universal one" }
                    } else { "no universal question \(id)" }
                if let problem { p.add("states/\(code).json", "-", "excludesUniversal", problem) }
            }
        }
    }
}
