import Foundation
import TutorCore

/// A small, fixed bank for reducer transcripts (the real banks change; these tests must not).
enum Sample {
    static let ny = StateInfo(
        code: "NY", name: "New York", timeZones: ["America/New_York"], minPermitAge: 16,
        handbook: "New York State Driver's Manual", launch: true, confidence: .high, note: nil,
        test: TestFormat(
            questions: 20, passCorrect: 14,
            sections: [
                TestSection(name: "Road signs", pool: .signs, questions: 4, passCorrect: 2),
                TestSection(name: "Rules", pool: .rules, questions: 16),
            ]))
    static let ca = StateInfo(
        code: "CA", name: "California", timeZones: ["America/Los_Angeles"], minPermitAge: 15.5,
        handbook: "California Driver's Handbook", launch: true, confidence: .high, note: nil,
        test: TestFormat(
            questions: 46, passCorrect: 38, sections: [TestSection(name: "Knowledge test", pool: .all, questions: 46)]))

    static func question(_ n: Int, _ topic: Topic = .rightOfWay, difficulty: Difficulty = .easy) -> Question {
        Question(
            id: "u-t-\(n)", category: topic, difficulty: difficulty, questionText: "Question \(n)?",
            answers: ["Right \(n)", "Wrong \(n)a", "Wrong \(n)b", "Wrong \(n)c"], correctAnswerIndex: 0,
            explanation: "Because \(n).", source: "Test manual, section \(n)")
    }

    static let banks = Banks(
        states: [ny, ca], universal: (1...14).map { question($0, $0 % 2 == 0 ? .rightOfWay : .parking) },
        stateQuestions: [
            "NY": [
                Question(
                    id: "ny-1", category: .stateSpecific, difficulty: .easy,
                    questionText: "NY rule?", answers: ["Yes", "No"], correctAnswerIndex: 0,
                    explanation: "It is.", source: "NY manual")
            ]
        ])

    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18, a Wednesday afternoon UTC

    static func context(_ now: Date = t0, seed: UInt64 = 7) -> DialogueContext {
        DialogueContext(banks: banks, now: now, seed: seed)
    }
    static let sam = Sender(userID: 77, firstName: "Sam", languageCode: "en")
    static func newChat() -> ChatState { Dialogue.newChat(chatID: 77, sender: sam, isGroup: false, now: t0) }
}
