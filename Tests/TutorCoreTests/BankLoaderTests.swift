import Foundation
import Testing
@testable import TutorCore

@Suite struct BankLoaderTests {
    static func sources(_ dir: String) throws -> BankSources {
        let fm = FileManager.default
        var files: [String: Data] = [:]
        for name in ["states.json", "universal.json", "signs.json"] { files[name] = fm.contents(atPath: "\(dir)/\(name)") }
        for name in try fm.contentsOfDirectory(atPath: "\(dir)/states") { files["states/\(name)"] = fm.contents(atPath: "\(dir)/states/\(name)") }
        return BankSources(files: files, signPictures: Set(try fm.contentsOfDirectory(atPath: "\(dir)/signs")))
    }

    /// A deliberately broken set of banks yields exactly these problems, each with file, id and field.
    @Test func brokenFixtureReportsEveryProblemAtOnce() throws {
        let dir = try #require(Bundle.module.path(forResource: "broken-banks", ofType: nil, inDirectory: "Fixtures"))
        let (banks, problems) = BankLoader.load(try Self.sources(dir))
        #expect(banks == nil)
        let expected = [
            "states.json: OH: test.sections[1].passCorrect: 25 is more than the section's 19 questions",
            "states.json: OH: test.sections: sections add up to 39 questions, the test has 40",
            "states.json: ZZ: timeZones: unknown time zone Mars/Olympus",
            "states.json: ZZ: confidence: must be high, medium or low",
            "signs.json: yield: id: no picture signs/yield.png",
            "universal.json: u-bad-2: category: unknown category weather",
            "universal.json: u-bad-2: difficulty: must be easy, medium or hard",
            "universal.json: u-bad-2: answers: an answer is empty",
            "universal.json: u-bad-2: answers: two answers are the same",
            "universal.json: u-bad-2: correctAnswerIndex: 5 is out of range for 3 answers",
            "universal.json: u-bad-2: explanation: must be a non-empty string",
            "universal.json: u-bad-2: source: missing",
            "universal.json: u-bad-2: imageAssetName: no sign \"rain\" in signs.json",
            "universal.json: u-bad-3: category: stateSpecific questions belong in a state file",
            "states/OH.json: oh-1: answers: a trueFalse question has answers [\"True\", \"False\"]",
            "states/XX.json: -: stateCode: unknown state XX (not in states.json)",
            "universal.json: u-ok-1: id: duplicate id (also in universal.json)",
        ]
        #expect(problems.map(\.description) == expected)
    }

    @Test func nearDuplicatesAreFoundWithinAPoolButNotAcrossStates() {
        func q(_ id: String, _ text: String, _ state: String? = nil) -> Question {
            Question(id: id, category: .parking, difficulty: .easy, questionText: text, answers: ["a", "b"], correctAnswerIndex: 0,
                     explanation: "e", source: "s", stateCode: state)
        }
        var p = Problems()
        BankLoader.checkNearDuplicates(universal: [q("u-1", "How far from a fire hydrant must you park?")],
                                       byState: ["MA": [q("ma-1", "How far from a fire hydrant must you park?!", "MA")],
                                                 "CA": [q("ca-1", "What is the speed limit in a school zone in California?", "CA")],
                                                 "TX": [q("tx-1", "What is the speed limit in a school zone in Texas?", "TX")]],
                                       &p)
        #expect(p.list.map(\.description) == ["states/MA.json: ma-1: questionText: near-duplicate of u-1 (similarity 100%)"])
    }
}
