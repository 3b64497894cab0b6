import Foundation

/// "✍️ Quiz me on this" and "📖 Open the lesson" under an answer: the lesson that teaches the
/// card, and 2-3 questions it teaches, those sharing the most words with the card first.
public enum AskQuizPicker {
    public static let maxQuestions = 3

    /// `l-signals-2-3` → `l-signals-2`.
    public static func lessonID(ofCard id: String) -> String {
        guard let dash = id.lastIndex(of: "-") else { return id }
        return String(id[..<dash])
    }

    /// A lesson card by its id, with its lesson (nil if a reload took it out).
    public static func card(_ id: String, banks: Banks) -> (lesson: Lesson, card: LessonCard)? {
        guard let lesson = banks.lesson(lessonID(ofCard: id)), let card = lesson.cards.first(where: { $0.id == id })
        else { return nil }
        return (lesson, card)
    }

    /// The lesson a card is in, or the one that teaches a question; nil for signs and test facts.
    public static func lesson(teaching ref: AskRef, banks: Banks) -> Lesson? {
        switch ref.kind {
        case .card: return banks.lesson(lessonID(ofCard: ref.raw))
        case .question:
            let code = banks.question(ref.id)?.stateCode
            let lessons =
                code.map { banks.lessons(forState: $0) } ?? banks.question(ref.id).map {
                    banks.lessons(for: $0.category)
                } ?? []
            return lessons.first { $0.teaches.contains(ref.id) }
        case .sign, .state, .rule: return nil
        }
    }

    /// The card of the lesson teaching `q` that shares most words with it and its explanation
    /// (the first such on a tie).
    public static func card(teaching q: Question, banks: Banks) -> LessonCard? {
        guard let lesson = lesson(teaching: AskRef(q.id), banks: banks) else { return nil }
        let asked = Set(AskText.terms(q.questionText + " " + q.explanation))
        let shared = lesson.cards.map { Set(AskText.terms($0.text)).intersection(asked).count }
        return shared.indices.max { shared[$0] < shared[$1] }.map { lesson.cards[$0] }
    }

    /// Up to three questions of the learner's pool on what `ref` says, most alike first.
    public static func questions(for ref: AskRef, banks: Banks, stateCode: String?) -> [String] {
        let pool = Set(banks.pool(for: stateCode).map(\.id))
        let about: String
        var candidates: [String]
        var first: [String] = []
        switch ref.kind {
        case .card:
            guard let found = card(ref.raw, banks: banks) else { return [] }
            about = found.card.text
            candidates = found.lesson.teaches
        case .question:
            guard let q = banks.question(ref.id) else { return [] }
            // Its lesson-mates, not the question itself: its answer was just shown.
            about = q.questionText + " " + q.explanation
            candidates = (lesson(teaching: ref, banks: banks)?.teaches ?? []).filter { $0 != q.id }
        case .sign:
            guard let sign = banks.signs.first(where: { $0.id == ref.id }) else { return [] }
            about = "\(sign.name) \(sign.meaning)"
            first = banks.pool(for: stateCode).filter { $0.imageAssetName == sign.id }.map(\.id)
            candidates = banks.pool(for: stateCode).filter(\.isSign).map(\.id)
        case .state:
            guard ref.id == stateCode else { return [] }  // another state's questions are not in the learner's pool
            about = "permit age test questions pass"
            candidates = (banks.stateQuestions[ref.id] ?? []).map(\.id)
        case .rule:
            // The learner's own questions that state this rule (tagged with it), the state's first.
            guard let (code, group) = ref.rule, code == stateCode, let info = banks.state(code) else { return [] }
            about = banks.stateRules.sentences(group: group, state: info).joined(separator: " ")
            first = banks.pool(for: stateCode).filter { q in
                banks.stateRuleTags[q.id]?.keys.contains { StateRules.group(of: $0) == group } == true
            }
            .sorted { ($0.stateCode == nil ? 1 : 0, $0.id) < ($1.stateCode == nil ? 1 : 0, $1.id) }.map(\.id)
            // And the state's own questions that say the same in other words.
            candidates = (banks.stateQuestions[code] ?? []).map(\.id)
        }
        let words = Set(AskText.terms(about))
        let ranked = candidates.filter { pool.contains($0) && !first.contains($0) }.compactMap { id -> (String, Int)? in
            guard let q = banks.question(id) else { return nil }
            let shared = Set(AskText.terms(q.questionText + " " + q.explanation)).intersection(words).count
            return shared >= 2 ? (id, shared) : nil
        }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
        return Array((first.filter(pool.contains) + ranked).prefix(maxQuestions))
    }
}
