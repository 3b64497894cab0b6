import Foundation
import TutorBot
import TutorCore
import TutorStore

/// The ask-the-tutor figures: how well the index answers the question set (the half it was tuned
/// on and the half held out), what the index adds to a bank load, and the CPU of one answer.
extension BenchSuites {
    func askSet(directory: String, showMisses: Bool) throws {
        let banks = try self.banks()
        let build = try Timing.median(runs: 5) { _ = try AskIndex(banks: banks) }
        let corpus = Timing.median(runs: 5) { _ = AskCorpus(banks: banks) }
        let index = try AskIndex(banks: banks)
        print(
            "ask index: \(index.corpus.documents.count) documents, \(index.corpus.documentFrequency.count) terms; "
                + "built in \(Timing.format(build)) (terms \(Timing.format(corpus)), FTS5 the rest; medians of 5)")
        let items = try AskSet.load(directory)
        for (name, half) in [("tuned on", items.filter { !$0.isHeldOut }), ("held out", items.filter(\.isHeldOut))] {
            let report = try AskSet.evaluate(half, index: index)
            print("ask set, \(name) (\(half.count)): \(report.summary)")
            guard showMisses, name == "tuned on" else { continue }
            for miss in report.misses {
                print(
                    "  ✗ [\(miss.item.state)] \(miss.item.question) → \(miss.got.best?.raw ?? "declined") "
                        + "(want \(miss.item.accept.sorted().prefix(4).joined(separator: " ")))")
                if let best = miss.got.best { print("      got: " + AskSet.text(of: best, banks: banks).prefix(110)) }
                if let want = miss.item.accept.sorted().first {
                    print("      want: " + AskSet.text(of: AskRef(want), banks: banks).prefix(110))
                }
                print("      terms: \(AskQuery(miss.item.question, corpus: index.corpus).groups)")
            }
        }
        // The simpler matching FTS5 was measured against: count the question's words a card holds
        // (no BM25: no term rarity, no length), the same judge on top.
        var overlapRight = 0
        var overlapOn = 0
        var overlapDeclined = 0
        var overlapOff = 0
        for item in items {
            let query = AskQuery(item.question, corpus: index.corpus)
            let target = AskJudge.targetState(query, learnerState: item.state)
            let candidates = index.corpus.documents.indices.compactMap { i -> AskJudge.Candidate? in
                let doc = index.corpus.documents[i]
                if let code = doc.stateCode, code != target { return nil }
                let shared = query.groups.filter { $0.contains(where: doc.terms.contains) }.count
                return shared == 0
                    ? nil : AskJudge.Candidate(document: i, bm25: -Double(shared) - 1 / Double(1 + doc.terms.count))
            }.sorted { $0.bm25 < $1.bm25 }.prefix(40)
            let got = AskJudge.decide(
                query, candidates: Array(candidates), corpus: index.corpus, learnerState: item.state)
            if item.isOffTopic {
                overlapOff += 1
                if got.best == nil { overlapDeclined += 1 }
            } else {
                overlapOn += 1
                if let best = got.best, item.accept.contains(best.raw) { overlapRight += 1 }
            }
        }
        print(
            String(
                format: "simpler matching (shared words, no BM25), whole set: precision at 1 %.1f%% (%d/%d) · "
                    + "off-topic declined %.1f%%",
                100 * Double(overlapRight) / Double(max(1, overlapOn)), overlapRight, overlapOn,
                100 * Double(overlapDeclined) / Double(max(1, overlapOff))))
        let whole = try AskSet.evaluate(items, index: index)
        print("FTS5 BM25, whole set: \(whole.summary)")
        // CPU per answer: every question of the set, 20 times, on this thread's clock.
        var costs: [Double] = []
        for _ in 0..<20 {
            for item in items {
                let t0 = ProcessFigures.threadCPUNanoseconds()
                _ = try index.lookUp(item.question, learnerState: item.state)
                costs.append(Double(ProcessFigures.threadCPUNanoseconds() - t0) / 1e9)
            }
        }
        costs.sort()
        print(
            "ask: CPU per answer p50 \(Timing.format(costs[costs.count / 2])), "
                + "p99 \(Timing.format(costs[costs.count * 99 / 100])), "
                + "max \(Timing.format(costs.last ?? 0)) (\(costs.count) look-ups)")
    }
}

extension BenchSuites {
    /// The judge's settings searched on the tuning half only (the index's candidates do not depend
    /// on them, so they are looked up once): the best settings by answers right plus off-topic
    /// declined, each side as a share.
    func askTune(directory: String) throws {
        let banks = try self.banks()
        let corpus = AskCorpus(banks: banks)
        let items = try AskSet.load(directory).filter { !$0.isHeldOut }
        let onTopic = Double(items.filter { !$0.isOffTopic }.count)
        let offTopic = Double(max(1, items.filter(\.isOffTopic).count))
        var results: [(score: Double, precision: Double, declined: Double, tuning: AskTuning)] = []
        for title in [1.0, 2.0] {
            for asks in [0.5, 1.0, 2.0] {
                // The candidates depend on the field weights only: looked up once per weight.
                var lookUp = AskTuning()
                lookUp.titleWeight = title
                lookUp.asksWeight = asks
                lookUp.pairBonus = 1
                let index = try AskIndex(corpus: corpus, tuning: lookUp)
                let prepared = try items.map { item -> (AskSetItem, AskQuery, [AskJudge.Candidate]) in
                    let query = AskQuery(item.question, corpus: index.corpus)
                    return (item, query, try index.candidates(query, learnerState: item.state))
                }
                for pairs in [1.0, 2.0] {
                    for coverage in [0.3, 0.4, 0.5] {
                        for story in [6.0, 8.0, 10.0, 12.0, 99.0] {
                            for unknown in [1.0] {
                                for lift in [0.0, 1.5, 1.8, 2.0, 2.2, 2.5, 3.0] {
                                    for titleBonus in [0.5, 1.0, 2.0] {
                                        for card in [1.0, 1.5] {
                                            var t = AskTuning()
                                            t.minimumCoverage = coverage
                                            t.storyMatchedWeight = story
                                            t.unknownDocumentFrequency = unknown
                                            t.minimumRoadLift = lift
                                            t.titleCoverageBonus = titleBonus
                                            t.cardPrior = card
                                            t.titleWeight = title
                                            t.asksWeight = asks
                                            t.pairBonus = pairs
                                            var right = 0.0
                                            var declined = 0.0
                                            for (item, query, candidates) in prepared {
                                                let got = AskJudge.decide(
                                                    query, candidates: candidates, corpus: index.corpus,
                                                    learnerState: item.state, tuning: t)
                                                if item.isOffTopic {
                                                    if got.best == nil { declined += 1 }
                                                } else if let best = got.best, item.accept.contains(best.raw) {
                                                    right += 1
                                                }
                                            }
                                            results.append(
                                                (
                                                    right / onTopic + declined / offTopic, right / onTopic,
                                                    declined / offTopic, t
                                                ))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for r in results.sorted(by: { $0.score > $1.score }).prefix(12) {
            print(
                String(
                    format: "precision %.1f%% declined %.1f%% · coverage %.2f story %.1f unknown df %.1f lift %.1f "
                        + "title %.1f asks %.1f pairs %.1f title cover %.1f card ×%.2f",
                    r.precision * 100, r.declined * 100, r.tuning.minimumCoverage, r.tuning.storyMatchedWeight,
                    r.tuning.unknownDocumentFrequency, r.tuning.minimumRoadLift, r.tuning.titleWeight,
                    r.tuning.asksWeight, r.tuning.pairBonus,
                    r.tuning.titleCoverageBonus, r.tuning.cardPrior))
        }
    }
}
