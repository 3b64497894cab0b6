import Foundation
import Testing
import TutorCore

@testable import JSONCoding

/// The session blob and every request body go through `StreamingJSONEncoder`: it must say what
/// Foundation's JSONEncoder says (the same JSON value) and read back to the same Swift value.
@Suite struct StreamingJSONEncoderTests {
    let fast = StreamingJSONEncoder()
    let foundation = JSONEncoder()

    func sameJSON<T: Codable & Equatable>(_ value: T, _ note: String = "") throws {
        let ours = try fast.encode(value)
        let theirs = try foundation.encode(value)
        // The same JSON value: both parsed and written again with sorted keys.
        func canonical(_ d: Data) throws -> Data {
            try JSONSerialization.data(
                withJSONObject: JSONSerialization.jsonObject(with: d, options: [.fragmentsAllowed]),
                options: [.sortedKeys, .fragmentsAllowed])
        }
        #expect(
            try canonical(ours) == canonical(theirs),
            "\(note)\nours:   \(String(decoding: ours, as: UTF8.self))\ntheirs: \(String(decoding: theirs, as: UTF8.self))"
        )
        #expect(try JSONDecoder().decode(T.self, from: ours) == value, "\(note): does not read back")
    }

    struct Odd: Codable, Equatable {
        var text: String
        var numbers: [Double]
        var when: Date
        var missing: String?
        var present: Int?
        var nested: [[String: Int]]
        var empty: Empty
        var emptyList: [Int]
        var optionals: [String?]
        var big: Int64
        struct Empty: Codable, Equatable {}
        struct Lists: Codable, Equatable {
            var ids: [String]
            var order: [Int]
            var none: [Int]
            var after: Int
        }
    }

    enum Kind: Codable, Equatable {
        case plain
        case count(Int)
        case named(x: String, y: [Int])
    }

    @Test func awkwardValuesComeOutAsFoundationWritesThem() throws {
        try sameJSON(
            Odd(
                text: "a/b \"q\" \\ \n\r\t\u{1}\u{1f} é 😀 \u{2028} <b>&amp;</b>",
                numbers: [0, -0.0, 0.1, 1e-7, 1e21, 2.0 / 3, 100, -5.5, 1.7976931348623157e308],
                when: Date(timeIntervalSinceReferenceDate: 812_345_678.123), missing: nil, present: 0,
                nested: [["b": 2, "a": 1], [:]], empty: .init(), emptyList: [], optionals: ["x", nil], big: Int64.max))
        try sameJSON([Kind.plain, .count(3), .named(x: "q", y: [1, 2])])
        try sameJSON("just a string")
        // Lists of ids and numbers are written directly (not through Array's Codable): the same bytes.
        try sameJSON([Int.min, Int.min + 1, -10, -9, -1, 0, 1, 9, 10, 99, 100, 1_234_567, Int.max])
        try sameJSON([[Int]]([[], [0], [3, 1, 2]]))
        try sameJSON([[String]]([[], ["a/b"], ["x", "\"y\""]]))
        try sameJSON(Odd.Lists(ids: ["u-1", "tx-2"], order: [2, 0, 1], none: [], after: 5))
        try sameJSON([Topic.roadSigns: 3, Topic.parking: 1])
        #expect(String(decoding: try fast.encode(Odd.Empty()), as: UTF8.self) == "{}")
        #expect(throws: StreamingJSONError.self) { try fast.encode([Double.nan]) }
    }

    /// Every session and result a learner's day produces: a quiz, a practice test, cards.
    @Test func everySessionOfAPlayedDayReadsBack() throws {
        let banks = WalkthroughTests.banks
        var s = Sample.newChat()
        var step = 0
        func play(_ e: Event) throws {
            step += 1
            let (next, _) = Dialogue.reduce(
                s, e,
                DialogueContext(banks: banks, now: Sample.t0.addingTimeInterval(Double(step) * 20), seed: UInt64(step)))
            s = next
            try sameJSON(s.session, "after step \(step) (\(e))")
            for r in s.results { try sameJSON(r, "result \(r.quizID)") }
        }
        try play(.commandSent(.start, payload: "WY"))
        for mode in [MenuItem.quickQuiz, .practiceTest, .livesChallenge, .timedChallenge] {
            try play(.buttonTapped(callbackID: "c", action: .menu(mode), messageID: 1))
            if mode == .practiceTest { try play(.buttonTapped(callbackID: "c", action: .startTest(1), messageID: 2)) }
            for i in 0..<12 {
                guard let quiz = s.session.quiz else { break }
                try play(
                    .buttonTapped(
                        callbackID: "a", action: .answer(quiz: quiz.id, question: quiz.index, option: i % 3),
                        messageID: 3))
                if let q = s.session.quiz {
                    try play(.buttonTapped(callbackID: "n", action: .next(quiz: q.id, question: q.index), messageID: 3))
                }
            }
        }
        try play(.buttonTapped(callbackID: "f", action: .menu(.flashcards), messageID: 4))
        #expect(s.results.count >= 2, "the day's quizzes were finished and scored")
    }
}
