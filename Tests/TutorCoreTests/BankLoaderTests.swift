import Foundation
import Testing

@testable import TutorCore

@Suite struct BankLoaderTests {
    static func sources(_ dir: String) throws -> BankSources {
        let fm = FileManager.default
        var files: [String: Data] = [:]
        for name in BankLoader.files { files[name] = fm.contents(atPath: "\(dir)/\(name)") }
        for folder in BankLoader.folders {
            for name in (try? fm.contentsOfDirectory(atPath: "\(dir)/\(folder)")) ?? [] where name.hasSuffix(".json") {
                files["\(folder)/\(name)"] = fm.contents(atPath: "\(dir)/\(folder)/\(name)")
            }
        }
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
            "universal/rules.json: u-bad-2: category: unknown category weather",
            "universal/rules.json: u-bad-2: difficulty: must be easy, medium or hard",
            "universal/rules.json: u-bad-2: answers: an answer is empty",
            "universal/rules.json: u-bad-2: answers: two answers are the same",
            "universal/rules.json: u-bad-2: correctAnswerIndex: 5 is out of range for 3 answers",
            "universal/rules.json: u-bad-2: explanation: must be a non-empty string",
            "universal/rules.json: u-bad-2: source: missing",
            "universal/rules.json: u-bad-2: imageAssetName: no sign \"rain\" in signs.json",
            "universal/rules.json: u-bad-3: category: stateSpecific questions belong in a state file",
            "states/OH.json: oh-1: answers: a trueFalse question has answers [\"True\", \"False\"]",
            "states/XX.json: -: stateCode: unknown state XX (not in states.json)",
            "universal/rules.json: u-ok-1: id: duplicate id (also in universal/rules.json)",
        ]
        #expect(problems.map(\.description) == expected)
    }

    /// The lint catches each way a bank gives its answers away, naming file, id and field.
    @Test func lintFindsEveryKindOfCue() {
        func q(
            _ id: String, _ text: String, _ answers: [String], topic: Topic = .parking, key: Int = 0,
            state: String? = nil,
            kind: QuestionKind = .multipleChoice, accepted: [String]? = nil, image: String? = nil
        ) -> Question {
            var q = Question(
                id: id, category: topic, difficulty: .easy, kind: kind, questionText: text, answers: answers,
                correctAnswerIndex: key, explanation: "e", source: "s", imageAssetName: image, stateCode: state)
            q.acceptedAnswers = accepted
            return q
        }
        let universal = [
            // The key is the longest option in 2 of 4: over 35%.
            q(
                "u-1", "How close to a fire hydrant may you park?",
                ["Not closer than the state's set distance", "Anywhere at all you like", "Right beside it if you stay"]),
            {
                var x = q(
                    "u-2", "Where should you look before you back out?",
                    ["Over your shoulder and mirrors", "Only into the mirror", "Only at the camera"])
                x.distinctFrom = ["u-99"]  // an id that does not exist
                return x
            }(),
            q(
                "u-3", "Which way do the wheels go downhill at a curb?",
                ["Toward the curb", "Away from the curb", "Straight ahead"]),
            // The same question reworded; its last option is more than twice the shortest.
            q(
                "u-4", "How close to a fire hydrant can you park?",
                ["Up to the set distance", "Right next to it", "On top of it, as long as you stay in the car"]),
            // A typed blank whose accepted spelling reads as another number.
            q(
                "u-5", "Keep your hands ___ inches from the airbag.", ["10 inches"], topic: .speedAndSpace,
                kind: .fillIn, accepted: ["1 foot", "ten"]),
            // A sign named without its picture.
            q("u-6", "What must you do at a stop sign?", ["Stop fully", "Slow down", "Go on"], topic: .roadSigns),
            q(
                "u-7", "What does this sign mean?", ["Slower", "Go faster", "Turn left"], topic: .roadSigns,
                image: "stop"),
        ]
        let signs = [
            SignInfo(id: "stop", name: "Stop", group: .regulatory, mutcd: "R1-1", meaning: "m", rule: "r"),
            SignInfo(id: "yield", name: "Yield", group: .regulatory, mutcd: "R1-2", meaning: "m", rule: "r"),
        ]
        let files = Dictionary(
            uniqueKeysWithValues: universal.map { ($0.id, "universal/\($0.category.rawValue).json") })
        let banks = Banks(states: [], universal: universal, stateQuestions: [:], signs: signs, questionFiles: files)
        let report = BankLint.lint(banks)
        let problems = report.problems.map(\.description)
        #expect(
            problems.contains(
                "universal/parking.json: -: answers: the key is the longest option in 2 of 4 multiple-choice questions (50%; at most 35%)"
            ))
        #expect(
            problems.contains(
                "universal/parking.json: -: category parking: the key is the longest option in 2 of 4 multiple-choice questions (50%; at most 35%)"
            ))
        #expect(
            problems.contains(
                "universal/parking.json: u-4: answers: an option is 44 characters, more than twice the shortest (16)"))
        #expect(!problems.contains { $0.contains("u-1: answers") })
        #expect(problems.contains { $0.hasPrefix("universal/parking.json: u-4: questionText: asks the same as u-1") })
        #expect(
            problems.contains(
                "universal/speedAndSpace.json: u-5: acceptedAnswers: \"1 foot\" reads as \"1\", but the key \"10 inches\" is the number 10.0"
            ))
        #expect(!problems.contains { $0.contains("\"ten\"") }, "ten means 10")
        #expect(
            problems.contains(
                "universal/roadSigns.json: u-6: imageAssetName: names the stop sign without showing it (imageAssetName \"stop\")"
            ))
        #expect(problems.contains("signs.json: yield: id: no question or lesson shows this picture"))
        #expect(problems.contains("universal/: -: category signals: 0 universal questions; a topic needs at least 8"))
        #expect(!problems.contains { $0.contains("u-7") })
        #expect(problems.contains("universal/parking.json: u-2: distinctFrom: no question u-99"))
        #expect(report.nearDuplicatePairs == 1)

        // A reviewed pair marked distinct is not reported.
        var marked = universal
        marked[3].distinctFrom = ["u-1"]
        marked[1].distinctFrom = nil
        let again = BankLint.lint(
            Banks(states: [], universal: marked, stateQuestions: [:], signs: signs, questionFiles: files))
        #expect(again.nearDuplicatePairs == 0)
    }
}
