import Foundation

/// A practice test laid out like the state's real one: questions in section order.
public struct PracticeExam: Equatable, Sendable {
    public var questionIDs: [String]
    /// Index into `format.sections` for each question.
    public var sectionOfQuestion: [Int]
}

public enum ExamError: Error, Equatable, CustomStringConvertible {
    case notEnoughQuestions(section: String, needed: Int, available: Int)
    case noFormat(state: String)

    public var description: String {
        switch self {
        case .notEnoughQuestions(let s, let n, let a): return "section \(s) needs \(n) questions, the bank has \(a) unused"
        case .noFormat(let s): return "\(s) has no test format"
        }
    }
}

/// Builds practice tests from universal + state questions.
///
/// Tests 1-4 are fixed (like TigerTest's): the same questions for everyone, every time, and no
/// question appears in two of them. Questions are ordered by a stable hash of (state, id) —
/// independent of file order, so adding questions to a bank reshuffles little — and dealt out
/// to the four tests section by section, the most restrictive pools (signs) first so an
/// "all topics" section cannot use up the signs a signs section needs.
public enum ExamBuilder {
    public static let fixedTests = 4

    public static func fixedTest(_ number: Int, state: StateInfo, pool: [Question]) throws -> PracticeExam {
        let format = state.test
        guard !format.sections.isEmpty else { throw ExamError.noFormat(state: state.code) }
        let ordered = pool.sorted { stableHash(state.code + $0.id) < stableHash(state.code + $1.id) }
        var used = Set<String>()
        var dealt: [Int: [Int: [String]]] = [:]   // test → section → ids
        let sectionOrder = format.sections.indices.sorted { restrictiveness(format.sections[$0].pool) < restrictiveness(format.sections[$1].pool) }
        for s in sectionOrder {
            let section = format.sections[s]
            for test in 1...fixedTests {
                // Materialised before `used` changes: the filter reads `used`.
                let picked = Array(ordered.lazy.filter { section.pool.admits($0) && !used.contains($0.id) }.prefix(section.questions).map(\.id))
                guard picked.count == section.questions else {
                    throw ExamError.notEnoughQuestions(section: section.name, needed: section.questions * fixedTests,
                                                       available: pool.filter(section.pool.admits).count)
                }
                used.formUnion(picked)
                dealt[test, default: [:]][s] = picked
            }
        }
        return layout(format, dealt[number] ?? [:])
    }

    /// A fresh draw: the same shape, any questions.
    public static func randomTest(state: StateInfo, pool: [Question], random: inout SeededRandom) throws -> PracticeExam {
        let format = state.test
        guard !format.sections.isEmpty else { throw ExamError.noFormat(state: state.code) }
        var used = Set<String>()
        var bySection: [Int: [String]] = [:]
        let shuffled = pool.shuffled(using: &random)
        for s in format.sections.indices.sorted(by: { restrictiveness(format.sections[$0].pool) < restrictiveness(format.sections[$1].pool) }) {
            let section = format.sections[s]
            let picked = shuffled.filter { section.pool.admits($0) && !used.contains($0.id) }.prefix(section.questions).map(\.id)
            guard picked.count == section.questions else {
                throw ExamError.notEnoughQuestions(section: section.name, needed: section.questions, available: picked.count)
            }
            used.formUnion(picked)
            bySection[s] = Array(picked)
        }
        return layout(format, bySection)
    }

    static func layout(_ format: TestFormat, _ bySection: [Int: [String]]) -> PracticeExam {
        var ids: [String] = []
        var sections: [Int] = []
        for s in format.sections.indices {
            let list = bySection[s] ?? []
            ids += list
            sections += Array(repeating: s, count: list.count)
        }
        return PracticeExam(questionIDs: ids, sectionOfQuestion: sections)
    }

    static func restrictiveness(_ p: SectionPool) -> Int {
        switch p { case .signs: return 0; case .rules: return 1; case .all: return 2 }
    }

    /// FNV-1a: stable across runs and platforms (Swift's Hasher is seeded per process).
    public static func stableHash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return h
    }
}

/// How one section of a practice test went, and why it passed or not.
public struct SectionOutcome: Codable, Equatable, Sendable {
    public var name: String
    public var correct: Int
    public var total: Int
    /// The section's own minimum, if it has one.
    public var needed: Int?
    public var separate: Bool
    public var passed: Bool
}

public struct ExamOutcome: Codable, Equatable, Sendable {
    public var correct: Int
    public var total: Int
    public var needed: Int
    public var sections: [SectionOutcome]
    public var passed: Bool
}

/// Scores a practice test by the state's real rules: the overall mark over the counted sections,
/// every section's own minimum (OH 15/20 each, NY 2 of 4 signs, VA 10/10 signs), and separate
/// tests (NC's 12 signs) that must be passed on their own.
public enum ExamScoring {
    public static func score(format: TestFormat, sectionOfQuestion: [Int], correct: [Bool]) -> ExamOutcome {
        var sections = format.sections.map { SectionOutcome(name: $0.name, correct: 0, total: $0.questions, needed: $0.passCorrect, separate: $0.separate, passed: true) }
        for (i, right) in correct.enumerated() where right && sectionOfQuestion.indices.contains(i) {
            let s = sectionOfQuestion[i]
            if sections.indices.contains(s) { sections[s].correct += 1 }
        }
        for i in sections.indices {
            sections[i].passed = sections[i].correct >= (sections[i].needed ?? 0)
        }
        let counted = sections.filter { !$0.separate }
        let total = counted.reduce(0) { $0 + $1.total }
        let right = counted.reduce(0) { $0 + $1.correct }
        let needed = format.passCorrect ?? Int((Double(total) * 0.8).rounded(.up))
        // A separate test with its own minimum counts only through that minimum.
        let passed = right >= needed && sections.allSatisfy(\.passed)
        return ExamOutcome(correct: right, total: total, needed: needed, sections: sections, passed: passed)
    }
}
