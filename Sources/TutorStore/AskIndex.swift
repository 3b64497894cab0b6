import Foundation
import GRDB
import TutorCore

/// The full-text index a typed question is looked up in: SQLite's FTS5 over every lesson card,
/// question explanation, sign and state's test facts (`AskCorpus`), in a database of its own in
/// memory, built when the banks load or reload. FTS5 ranks by BM25 (a title counts twice what
/// body text does); `AskJudge` then decides whether the best is an answer at all.
///
/// The index holds the corpus's terms, not its raw text: the question goes through the same
/// `AskText` steps (stems, synonyms, typo fixes), so both sides meet on one vocabulary.
public final class AskIndex: Sendable {
    public let corpus: AskCorpus
    public let tuning: AskTuning
    private let db: DatabaseQueue
    /// Candidates the judge sees: enough that the state's own card is among them when a general
    /// card outranks it on BM25 alone.
    static let candidateLimit = 40

    public init(corpus: AskCorpus, tuning: AskTuning = .standard) throws {
        self.corpus = corpus
        self.tuning = tuning
        db = try DatabaseQueue()
        try db.write { db in
            // Contentless (`content = ''`): only rowids and BM25's statistics are read back, so the
            // terms' text need not be stored twice. `state` holds one token, the document's state
            // or every state's (`stateToken`), so the state filter is part of the MATCH (a merge
            // of two posting lists) and not a lookup of every matching row's stored text.
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE ask USING fts5(title, body, asks, state, content = '', tokenize = 'unicode61')
                    """)
            let insert = try db.makeStatement(
                sql: "INSERT INTO ask(rowid, title, body, asks, state) VALUES (?, ?, ?, ?, ?)")
            for (i, doc) in corpus.documents.enumerated() {
                try insert.execute(arguments: [
                    i, doc.titleTerms.joined(separator: " "), doc.bodyTerms.joined(separator: " "),
                    doc.askTerms.joined(separator: " "), Self.stateToken(doc.stateCode),
                ])
            }
        }
    }

    public convenience init(banks: Banks, tuning: AskTuning = .standard) throws {
        try self.init(corpus: AskCorpus(banks: banks), tuning: tuning)
    }

    /// The `state` column's one token: `zzall` for every state's documents, `zztx` for Texas's.
    /// (No search term is ever this: question terms are matched in the other columns only.)
    static func stateToken(_ code: String?) -> String {
        "zz" + (code.map { $0.isEmpty ? "all" : $0.lowercased() } ?? "all")
    }

    /// The answer to `text` for a learner of `learnerState` (or the state the text names, or
    /// `forState`: a follow-up's "what about in california" asks the last question for California).
    public func lookUp(_ text: String, learnerState: String?, forState: String? = nil) throws -> AskLookup {
        var query = AskQuery(text, corpus: corpus)
        if let forState { query.namedState = forState }
        return AskJudge.decide(
            query, candidates: try candidates(query, learnerState: learnerState), corpus: corpus,
            learnerState: learnerState, tuning: tuning)
    }

    /// FTS5's best documents for the question's terms, in its state and every state's, with the
    /// question's word pairs each holds side by side.
    public func candidates(_ query: AskQuery, learnerState: String?) throws -> [AskJudge.Candidate] {
        let state = AskJudge.targetState(query, learnerState: learnerState) ?? ""
        guard let terms = query.matchExpression(in: corpus) else { return [] }
        let states = [Self.stateToken(nil), Self.stateToken(state)].joined(separator: " OR ")
        let match = "{title body asks} : (\(terms)) AND state : (\(states))"
        return try db.read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT rowid, bm25(ask, ?, 1.0, ?, 0.0) AS score FROM ask
                    WHERE ask MATCH ? ORDER BY score LIMIT \(Self.candidateLimit)
                    """)
            return try Row.fetchAll(statement, arguments: [tuning.titleWeight, tuning.asksWeight, match]).map { row in
                let document: Int = row[0]
                return AskJudge.Candidate(
                    document: document, bm25: row[1], pairs: query.pairsHeld(by: corpus.documents[document]))
            }
        }
    }
}
