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
            // `state` is '' for every state's documents; it is filtered on, not searched.
            try db.execute(
                sql: "CREATE VIRTUAL TABLE ask USING fts5(title, body, asks, state UNINDEXED, tokenize = 'unicode61')")
            let insert = try db.makeStatement(
                sql: "INSERT INTO ask(rowid, title, body, asks, state) VALUES (?, ?, ?, ?, ?)")
            for (i, doc) in corpus.documents.enumerated() {
                try insert.execute(arguments: [
                    i, doc.titleTerms.joined(separator: " "), doc.bodyTerms.joined(separator: " "),
                    doc.askTerms.joined(separator: " "), doc.stateCode ?? "",
                ])
            }
        }
    }

    public convenience init(banks: Banks, tuning: AskTuning = .standard) throws {
        try self.init(corpus: AskCorpus(banks: banks), tuning: tuning)
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
        guard let match = query.matchExpression(in: corpus) else { return [] }
        return try db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT rowid, bm25(ask, ?, 1.0, ?, 0.0) AS score FROM ask
                    WHERE ask MATCH ? AND state IN ('', ?) ORDER BY score LIMIT \(Self.candidateLimit)
                    """, arguments: [tuning.titleWeight, tuning.asksWeight, match, state]
            ).map { row in
                let document: Int = row[0]
                return AskJudge.Candidate(
                    document: document, bm25: row[1], pairs: query.pairsHeld(by: corpus.documents[document]))
            }
        }
    }
}
