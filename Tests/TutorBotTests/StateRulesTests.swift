import Foundation
import JSONCoding
import Testing

@testable import TutorBot
@testable import TutorCore

/// Issue #41: one table of the rules that differ by state (`Banks/state-rules.json`), what every
/// tagged question and card is checked against, what leaves a universal question out where a
/// state's law differs, and what a general lesson says in place of "check your state's rules".
@Suite struct StateRulesTests {
    static let dir = "\(repoRoot)/Banks"

    /// The shipped banks with one file's JSON changed by `edit`.
    static func load(editing file: String, _ edit: (inout [String: Any]) -> Void) throws -> (Banks?, [BankProblem]) {
        var sources = try BankFiles.read(dir)
        let data = try #require(sources.files[file])
        var root = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&root)
        sources.files[file] = try JSONSerialization.data(withJSONObject: root)
        return BankLoader.load(sources)
    }

    @Test func theTableCoversEveryJurisdictionWithSourcesAndTheBanksAgreeWithIt() throws {
        let (loaded, problems) = try BankFiles.load(Self.dir)
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        let banks = try #require(loaded)
        let table = banks.stateRules
        #expect(table.rules.count >= 20)
        #expect(table.values.count == 51)
        for (code, entries) in table.values {
            #expect(entries.count == table.rules.count, "\(code)")
            for (rule, entry) in entries {
                #expect(!entry.source.isEmpty && entry.checked.count == 10, "\(code) \(rule)")
            }
        }
        let report = StateRuleCheck.check(banks)
        #expect(report.problems.isEmpty, "\(report.problems.prefix(5))")
        #expect(report.itemsChecked > 0)
        #expect(report.summary.hasPrefix("state rules: \(table.rules.count) rules × 51 jurisdictions"))
        #expect(report.summary.hasSuffix("questions and cards checked, 0 contradictions"))
    }

    /// A state question tagged with a value its state's row contradicts is a lint problem that
    /// names the file, the question and the table's value.
    /// A dollar amount reads as a teen reads it: "$2,500", not "$2500".
    @Test func largeAmountsAreGroupedInTheSentence() {
        #expect(
            StateRules.grouped(2500) == "2,500" && StateRules.grouped(1_000_000) == "1,000,000"
                && StateRules.grouped(500) == "500")
    }

    @Test func aStateQuestionThatContradictsTheTableIsReported() throws {
        let (banks, problems) = try Self.load(editing: "states/TX.json") { root in
            var questions = root["questions"] as! [[String: Any]]
            let i = questions.firstIndex { $0["id"] as? String == "tx-001" }!
            questions[i]["stateRules"] = ["permitAge": 16]
            root["questions"] = questions
        }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        let report = StateRuleCheck.check(try #require(banks))
        let texasAge = try #require(banks?.stateRules.value("permitAge", state: "TX"))
        #expect(
            report.problems.map(\.description).contains(
                "states/TX.json: tx-001: stateRules: teaches permitAge = 16, but state-rules.json has \(texasAge) for TX "
                    + "(\(banks!.stateRules.entry("permitAge", state: "TX")!.source))"))
    }

    /// A universal question that teaches one value is left out, automatically, in every state whose
    /// law differs, and kept where the table agrees or has no value.
    @Test func aUniversalQuestionIsLeftOutWhereTheTableDisagrees() throws {
        let shipped = try #require(try BankFiles.load(Self.dir).banks)
        let checks = Set(shipped.allLessons.flatMap(\.checkQuestionIds))
        let file = "universal/alcoholDrugs.json"
        var picked = ""
        let (banks, problems) = try Self.load(editing: file) { root in
            var questions = root["questions"] as! [[String: Any]]
            let i = questions.firstIndex { !checks.contains($0["id"] as! String) }!
            picked = questions[i]["id"] as! String
            questions[i]["stateRules"] = ["adultBAC": 0.08]
            root["questions"] = questions
        }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        let loaded = try #require(banks)
        let differing = loaded.stateRules.values.keys.filter {
            if case .number(let v)? = loaded.stateRules.value("adultBAC", state: $0) { return v != 0.08 }
            return false
        }
        #expect(!differing.isEmpty, "some state (Utah) has another adult limit")
        for code in loaded.stateRules.values.keys {
            let inPool = loaded.poolIDs(for: code).contains(picked)
            #expect(inPool == !differing.contains(code), "\(code)")
        }
    }

    /// A broken row is reported by file, state and rule, and the banks don't load.
    @Test func aBrokenTableIsReportedWhereItIsWrong() throws {
        let (banks, problems) = try Self.load(editing: "state-rules.json") { root in
            var states = root["states"] as! [String: [String: Any]]
            var texas = states["TX"]!
            texas["adultBAC"] = ["value": "0.08", "source": "x", "checked": "2026-11-29"]
            texas["rightOnRed"] = ["value": true, "source": "x", "checked": "yesterday"]
            texas.removeValue(forKey: "supervisedHours")
            texas["leftOnBlue"] = ["value": true, "source": "x", "checked": "2026-11-29"]
            states["TX"] = texas
            root["states"] = states
        }
        #expect(banks == nil)
        let lines = Set(problems.map(\.description))
        #expect(lines.contains("state-rules.json: TX: adultBAC: value must be a number or null"))
        #expect(lines.contains("state-rules.json: TX: rightOnRed: checked must be a day, YYYY-MM-DD"))
        #expect(lines.contains("state-rules.json: TX: supervisedHours: missing (null value for not found)"))
        #expect(lines.contains("state-rules.json: TX: leftOnBlue: unknown rule"))
    }

    /// A general card that used to hedge says the learner's state's rule instead, and keeps its
    /// hedge where the state's value is not found or no state is picked.
    @Test func aGeneralCardSaysTheLearnersStateRule() throws {
        let shipped = try #require(try BankFiles.load(Self.dir).banks)
        let rules = StateRules(
            rules: [
                StateRule(
                    id: "bikePassingFeet", kind: .number, title: "Bike passing",
                    says: "you must leave at least {value} feet when you pass someone on a bike.")
            ],
            values: [
                "CO": [
                    "bikePassingFeet": StateRuleEntry(
                        value: .number(3), source: "C.R.S. 42-4-1003", checked: "2026-11-29")
                ],
                "TX": ["bikePassingFeet": StateRuleEntry(value: nil, source: "none in law", checked: "2026-11-29")],
            ])
        let card = LessonCard(
            id: "l-x-1-1", text: "Give bikes room.", source: "s",
            stateRule: CardStateRule(rule: "bikePassingFeet", hedge: "Check your state's rules."))
        let colorado = try #require(shipped.state("CO"))
        let texas = try #require(shipped.state("TX"))
        #expect(
            card.text(for: colorado, rules: rules)
                == "Give bikes room.\n📍 In Colorado, you must leave at least 3 feet when you pass someone on a bike.")
        #expect(card.text(for: texas, rules: rules) == "Give bikes room.\nCheck your state's rules.")
        #expect(card.text(for: nil, rules: rules) == "Give bikes room.\nCheck your state's rules.")
        #expect(StateRules.spokenHours("23:00-05:00") == "11 p.m. to 5 a.m.")
        #expect(StateRules.spokenHours("00:00-05:00") == "midnight to 5 a.m.")
        #expect(StateRules.format(15.5) == "15½" && StateRules.format(0.08) == "0.08")
    }
}
