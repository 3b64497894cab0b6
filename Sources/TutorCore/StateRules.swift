import Foundation

/// The value of one state rule: a number (years, hours, mph, feet, percent), yes/no, a span of
/// clock hours ("00:00-05:00") or a sentence. Numbers, yes/no and hours can be compared with what a
/// question or card teaches; a sentence is for reading only.
public enum StateRuleValue: Equatable, Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case yesNo(Bool)
    case hours(String)
    case text(String)

    public var description: String {
        switch self {
        case .number(let n): return StateRules.format(n)
        case .yesNo(let b): return b ? "true" : "false"
        case .hours(let h): return h
        case .text(let t): return t
        }
    }
}

/// What kind of value a rule takes.
public enum StateRuleKind: String, Sendable, CaseIterable {
    case number
    case yesNo = "boolean"
    case hours, text

    /// Whether a question or card can be checked against this rule's value.
    public var isComparable: Bool { self != .text }
}

/// One rule that differs by state, and how the bot says a state's value to a learner.
public struct StateRule: Equatable, Sendable {
    public var id: String
    public var kind: StateRuleKind
    public var title: String
    /// The sentence after "In Colorado, ": `{value}` is the state's value (a number with its
    /// unit written in the sentence). Yes/no rules have one sentence for each answer.
    public var says: String
    public var saysNo: String?
    /// A number rule's sentence where the value is 0 ("any alcohol at all", not "over the limit at 0%").
    public var saysZero: String?

    public init(
        id: String, kind: StateRuleKind, title: String, says: String, saysNo: String? = nil, saysZero: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.title = title
        self.says = says
        self.saysNo = saysNo
        self.saysZero = saysZero
    }
}

/// One state's value for one rule, with where it comes from. `value == nil` is "not found": the
/// state's handbook and statutes are silent, or we could not confirm a value (better than a guess).
public struct StateRuleEntry: Equatable, Sendable {
    public var value: StateRuleValue?
    /// One plain sentence of conditions or exceptions, shown after the rule.
    public var detail: String?
    /// The state's own wording of the rule, in place of the rule's `says` where the common wording
    /// would mislead (New Jersey's night limit allows no driving at all, not "without an adult").
    public var says: String?
    public var source: String
    /// The day the value was checked (YYYY-MM-DD).
    public var checked: String

    public init(value: StateRuleValue?, detail: String? = nil, source: String, checked: String) {
        self.value = value
        self.detail = detail
        self.source = source
        self.checked = checked
    }
}

/// `Banks/state-rules.json`: the rules that differ by state, for every jurisdiction. It is what
/// state questions and cards are checked against (`StateRuleCheck`), what decides which universal
/// questions a state never asks, and what a general lesson says in place of "check your state's rules".
public struct StateRules: Sendable {
    public let rules: [StateRule]
    /// State code → rule id → entry.
    public let values: [String: [String: StateRuleEntry]]
    private let ruleByID: [String: StateRule]
    /// The groups rules are asked in (`group(of:)`), in the table's order: worked out once, as
    /// every bank load asks each state's sentences group by group.
    public let groups: [String]
    private let rulesByGroup: [String: [StateRule]]

    public init(rules: [StateRule], values: [String: [String: StateRuleEntry]]) {
        self.rules = rules
        self.values = values
        self.ruleByID = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var groups: [String] = []
        var byGroup: [String: [StateRule]] = [:]
        for rule in rules {
            let group = Self.group(of: rule.id)
            if byGroup[group] == nil { groups.append(group) }
            byGroup[group, default: []].append(rule)
        }
        self.groups = groups
        self.rulesByGroup = byGroup
    }

    public static let empty = StateRules(rules: [], values: [:])

    public func rule(_ id: String) -> StateRule? { ruleByID[id] }

    /// Rules a teen asks about as one question ("left on red": both its cases; "move over": the
    /// law, whom it covers, how to slow): the rules whose ids share one of these beginnings,
    /// else the rule alone.
    static let askedTogether = [
        "leftOnRed", "rightOnRed", "moveOver", "schoolBus", "seatBelt", "under21", "newDriver", "supervised",
        "permit",
    ]

    /// The group `ruleID` is asked in (see `askedTogether`).
    public static func group(of ruleID: String) -> String {
        askedTogether.first { ruleID.hasPrefix($0) } ?? ruleID
    }

    /// The rules of `group`, in the table's order.
    public func rules(inGroup group: String) -> [StateRule] { rulesByGroup[group] ?? [] }

    /// Each rule of `group` the state has a value for, as the learner reads it ("In Kentucky, …").
    public func sentences(group: String, state: StateInfo) -> [String] {
        rules(inGroup: group).compactMap { sentence($0.id, state: state) }
    }
    public func entry(_ ruleID: String, state code: String) -> StateRuleEntry? { values[code]?[ruleID] }
    public func value(_ ruleID: String, state code: String) -> StateRuleValue? { values[code]?[ruleID]?.value }

    /// "In Colorado, you must leave at least 3 feet when you pass someone on a bike. <detail>",
    /// or nil where the state's value is not found.
    public func sentence(_ ruleID: String, state: StateInfo) -> String? {
        guard let rule = rule(ruleID), let entry = entry(ruleID, state: state.code), let value = entry.value else {
            return nil
        }
        var template: String
        if let own = entry.says {
            template = own
        } else if case .number(0) = value, let zero = rule.saysZero {
            template = zero
        } else if case .yesNo(false) = value, let no = rule.saysNo {
            template = no
        } else {
            template = rule.says
        }
        // "at most 0 passengers" reads "no passengers"; "at most 1 passengers", "1 passenger".
        if case .number(let n) = value, n == 0 || n == 1 {
            template = Self.countWording(template, one: n == 1)
        }
        var said = template.replacingOccurrences(of: "{value}", with: Self.spoken(value))
        if said.hasSuffix("..") { said.removeLast() }  // a value ending "a.m." before the sentence's stop
        let line = "In \(state.name), \(said)"
        guard let detail = entry.detail, !detail.isEmpty else { return line }
        // A detail the sentence already says ("After a full stop, unless a sign forbids it.") is
        // not said twice.
        // Compared as lowercased ASCII letters and digits: a bank load writes some 2,000 of these.
        func plain(_ s: String) -> [UInt8] {
            s.utf8.compactMap { b in
                switch b {
                case 65...90: b + 32
                case 97...122, 48...57: b
                default: nil
                }
            }
        }
        let whole = plain(line)
        let extra = plain(detail)
        var repeated = false
        if extra.count <= whole.count {
            for start in 0...(whole.count - extra.count) where whole[start..<(start + extra.count)].elementsEqual(extra)
            {
                repeated = true
                break
            }
        }
        return repeated ? line : line + " " + detail
    }

    /// A count's template worded for 0 ("at most {value} passengers" → "no passengers") or for 1
    /// ("{value} passengers" → "{value} passenger").
    static func countWording(_ template: String, one: Bool) -> String {
        var t = template
        if !one { t = t.replacingOccurrences(of: "at most {value} ", with: "no ") }
        for (plural, singular) in [
            ("passengers who are", "passenger who is"), ("passengers", "passenger"), ("months", "month"),
            ("hours", "hour"), ("seconds", "second"),
            ("feet", "foot"),
        ] where one {
            t = t.replacingOccurrences(of: "{value} \(plural)", with: "{value} \(singular)")
        }
        return t
    }

    /// A value as a learner reads it: 15.5 → "15½", "00:00-05:00" → "midnight to 5 a.m.".
    static func spoken(_ value: StateRuleValue) -> String {
        switch value {
        case .number(let n): return n >= 1000 && n == n.rounded() ? grouped(Int(n)) : format(n)
        case .yesNo(let b): return b ? "yes" : "no"
        case .hours(let span): return spokenHours(span)
        case .text(let t): return t
        }
    }

    public static func format(_ n: Double) -> String {
        if n == n.rounded() { return String(Int(n)) }
        if n - n.rounded(.down) == 0.5 && n >= 1 { return "\(Int(n))½" }
        var s = String(format: "%.3f", n)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    /// 2500 → "2,500" (a dollar amount as a teen reads it).
    static func grouped(_ n: Int) -> String {
        var digits = String(n)
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return digits + out
    }

    /// "23:00-05:00" → "11 p.m. to 5 a.m.".
    static func spokenHours(_ span: String) -> String {
        let ends = span.split(separator: "-").map(String.init)
        guard ends.count == 2, let from = clock(ends[0]), let to = clock(ends[1]) else { return span }
        return "\(from) to \(to)"
    }

    static func clock(_ hhmm: String) -> String? {
        let parts = hhmm.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0...23).contains(parts[0]), (0...59).contains(parts[1]) else { return nil }
        let (h, m) = (parts[0], parts[1])
        if h == 0 && m == 0 { return "midnight" }
        if h == 12 && m == 0 { return "noon" }
        let hour12 = h % 12 == 0 ? 12 : h % 12
        let minutes = m == 0 ? "" : String(format: ":%02d", m)
        return "\(hour12)\(minutes) \(h < 12 ? "a.m." : "p.m.")"
    }

    /// Whether a "HH:MM-HH:MM" span is well formed.
    static func isHours(_ span: String) -> Bool {
        let ends = span.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        return ends.count == 2 && ends.allSatisfy { $0.count == 5 && clock($0) != nil }
    }
}

/// A general lesson card that would otherwise hedge ("Many states set a minimum passing distance,
/// so check your state's rules"): the learner reads their state's value from the table in its
/// place, and the hedge only where the state's value is not found (or no state is picked yet).
public struct CardStateRule: Equatable, Sendable {
    public var rule: String
    public var hedge: String

    public init(rule: String, hedge: String) {
        self.rule = rule
        self.hedge = hedge
    }
}

extension LessonCard {
    /// The card's text as a learner in `state` reads it: a state-rule card ends with "📍 In Texas, …"
    /// where the table has Texas's value, or with its hedge.
    public func text(for state: StateInfo?, rules: StateRules) -> String {
        guard let stateRule else { return text }
        let said = state.flatMap { rules.sentence(stateRule.rule, state: $0) }.map { "📍 " + $0 } ?? stateRule.hedge
        return text + "\n" + said
    }
}
