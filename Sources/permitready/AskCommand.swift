import ArgumentParser
import Foundation
import TutorBot
import TutorCore
import TutorStore

extension PermitReady {
    /// For the people who write the content: what the bot answers a typed question with, or how
    /// a whole question set fares, on the banks in the folder (no database, no Telegram).
    struct Ask: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Which card the bot answers a typed question with (or --set: how a question set fares).")
        @OptionGroup var paths: Paths
        @Option(help: "The learner's state (two letters).") var state = "TX"
        @Option(
            help: "A folder of question sets (Tests/AskSet): precision on each half, and the questions answered wrong.")
        var set: String?
        @Flag(help: "Also list the index's best candidates, as the judge scored them.") var explain = false
        @Argument(help: "The question, as a learner would type it.") var question: [String] = []

        func run() throws {
            let config = paths.config(token: "", defaultDB: "")
            let (banks, problems) = try BankFiles.load(config.banksDirectory)
            guard let banks else {
                throw fail("the banks in \(config.banksDirectory) do not load: \(problems.first.map { "\($0)" } ?? "")")
            }
            let index = try AskIndex(banks: banks)
            if let set {
                let items = try AskSet.load(set)
                let report = try AskSet.evaluate(items, index: index)
                print(report.summary)
                for miss in report.misses {
                    print("✗ [\(miss.item.state)] \(miss.item.question) → \(miss.got.best?.raw ?? "declined")")
                }
                return
            }
            let text = question.joined(separator: " ")
            guard !text.isEmpty else {
                throw fail("type a question: permitready ask --state TX \"can i turn right on red\"")
            }
            let got = try index.lookUp(text, learnerState: state.uppercased())
            if explain { try printCandidates(text, index: index) }
            guard let best = got.best else {
                print("declined (nearest topics: \(got.nearestTopics.map(\.rawValue).joined(separator: ", ")))")
                return
            }
            print("answer: \(best.raw)\(got.stateCode.map { " (for \($0))" } ?? "")")
            print("  \(AskSet.text(of: best, banks: banks, state: got.stateCode))")
            if let alternative = got.alternative {
                print(
                    """
                    or did you mean: \(alternative.raw)\n  \
                    \(AskSet.text(of: alternative, banks: banks, state: got.stateCode))
                    """
                )
            }
        }
    }
}

extension PermitReady.Ask {
    /// The question's words as the index reads them, and the judge's five best candidates.
    func printCandidates(_ text: String, index: AskIndex) throws {
        let query = AskQuery(text, corpus: index.corpus)
        print(
            "terms: \(query.groups)  road lift: \(query.roadLift.map { $0.map { String(format: "%.1f", $0) } ?? "-" })")
        let candidates = try index.candidates(query, learnerState: state.uppercased())
        let ranked = AskJudge.ranked(
            query, candidates: candidates, corpus: index.corpus, learnerState: state.uppercased(), tuning: index.tuning)
        for s in ranked.prefix(5) {
            let figures = String(
                format: "score %.2f coverage %.2f matched %.1f (%d words)", s.score, s.coverage, s.matched,
                s.wordsMatched)
            print("  \(index.corpus.documents[s.document].ref.raw) \(figures)")
        }
    }
}
