import Foundation
import Mustache
import TutorCore

// What an answered question and an answer to a typed question show (template contexts).

struct AnsweredContext {
    var number: Int
    var total: Int
    var topic: String
    var sectionName: String?
    var text: String
    var options: [OptionContext]
    var isCorrect: Bool
    var timedOut: Bool
    var cheer: String
    var chosenLetter: String
    var correctLetter: String
    /// "B" for a lettered question, the answer itself for a typed one.
    var correctAnswer: String
    var typed: String?
    var typo: Bool
    var hasLives: Bool
    var hearts: String
    var explanation: String
    /// nil: a universal question with no state picked ("your state's handbook", in the template).
    var source: String?
    var skipped: Bool
    /// The hard-question bonus this answer earned; nil for none.
    var hardBonusXP: Int?

    /// `lockedIn`: a practice-test answer shown without giving away whether it was right.
    init(_ v: AnsweredView, prompts: Prompts, lockedIn: Bool = false) {
        correctAnswer = v.question.typeIn ? v.correctText : v.correctLetter
        typed = v.typed
        typo = v.typo
        hasLives = v.question.lives != nil
        hearts = QuestionContext.hearts(v.question.lives)
        number = v.question.number
        total = v.question.total
        topic = prompts.topicName(v.question.topic)
        text = v.question.text
        sectionName = v.question.sectionName
        timedOut = v.timedOut
        skipped = v.skipped
        hardBonusXP = lockedIn || v.hardBonusXP == 0 ? nil : v.hardBonusXP
        chosenLetter = v.chosenLetter
        options = v.question.options.map { o in
            if lockedIn {
                return OptionContext(letter: o.letter, text: o.text, mark: o.letter == v.chosenLetter ? "🔘" : "▫️")
            }
            return OptionContext(
                letter: o.letter, text: o.text,
                mark: o.letter == v.correctLetter ? "✅" : (o.letter == v.chosenLetter ? "❌" : "▫️"))
        }
        isCorrect = v.isCorrect
        let cheers = prompts.strings.cheers
        cheer = cheers.isEmpty ? "Correct!" : cheers[(v.question.number + v.question.text.count) % cheers.count]
        correctLetter = v.correctLetter
        explanation = v.explanation
        // A universal question cites the learner's own handbook and the topic's chapter: a Texas
        // learner is never sent to a standard's section code or another state's manual.
        let chapter = topic
        source = v.handbook.map { "\($0) — \(chapter)" } ?? (v.universal ? nil : v.source)
    }
}

extension AnsweredContext: TemplateFields {
    var fields: [String: Any] {
        var f: [String: Any] = [
            "number": number, "total": total, "topic": topic, "text": text, "options": options.map(\.fields),
            "isCorrect": isCorrect, "timedOut": timedOut, "cheer": cheer, "chosenLetter": chosenLetter,
            "correctLetter": correctLetter, "correctAnswer": correctAnswer, "hasLives": hasLives,
            "hearts": hearts, "explanation": explanation, "skipped": skipped, "typo": typo,
        ]
        if let source { f["source"] = source }
        if let sectionName { f["sectionName"] = sectionName }
        if let typed { f["typed"] = typed }
        if let hardBonusXP { f["hardBonusXP"] = hardBonusXP }
        return f
    }
}

/// An answer to a typed question: one of a lesson card, a question with its explanation, a sign
/// or a state's test card, and the line saying where it comes from.
struct AskAnswerContext {
    struct Card {
        var title: String
        var text: String
    }
    struct Question {
        var question: String
        var answer: String
        var explanation: String
    }
    struct Sign {
        var name: String
        var meaning: String
        var rule: String
    }
    var card: Card?
    var question: Question?
    var sign: Sign?
    /// The state's test card, rendered by its own template (HTML).
    var stateCard: String?
    /// The state whose test card doesn't cover what was asked (`AskAnswerView.beyondTheCard`).
    var beyondTheCard: String?
    var otherState: String?
    var source: String

    init(_ v: AskAnswerView, prompts: Prompts) {
        switch v.body {
        case .card(let title, let text): card = Card(title: title, text: text)
        case .question(let q, let a, let e): question = Question(question: q, answer: a, explanation: e)
        case .sign(let s): sign = Sign(name: s.name, meaning: s.meaning, rule: s.rule)
        case .state(let s):
            stateCard = prompts.stateCard(StateCardContext(s)).trimmingCharacters(in: .whitespacesAndNewlines)
            beyondTheCard = v.beyondTheCard ? s.state.name : nil
        }
        otherState = v.otherState
        let section = v.section ?? prompts.topicName(v.topic)
        if let handbook = v.handbook {
            source = stateCard != nil ? handbook : "\(handbook) — \(section)"
        } else {
            let same = prompts.strings.buttons["sameEverywhere"] ?? "the same in every state"
            source = "\(prompts.topicName(v.topic))\(v.section.map { " — \($0)" } ?? "") · \(same)"
        }
    }
}
