import Foundation

/// Each section's chances moved to what the evidence says, and the exact pass probability of a
/// state's test format given each slot's chance.
extension Readiness {
    // MARK: - The evidence's level, section by section

    /// One section's chances shifted in log-odds so the slots not `kept` average `target`; kept
    /// slots (topics never tried) stay as they are: tests say nothing of them.
    static func shifted(_ slots: [Double], keeping kept: [Bool], toMean target: Double) -> [Double] {
        func logit(_ p: Double) -> Double {
            let c = min(0.999, max(0.001, p))
            return log(c / (1 - c))
        }
        let moving = slots.indices.filter { !(kept.indices.contains($0) && kept[$0]) }
        guard !moving.isEmpty else { return slots }
        let logits = moving.map { logit(slots[$0]) }
        func mean(_ d: Double) -> Double { logits.reduce(0) { $0 + 1 / (1 + exp(-($1 + d))) } / Double(logits.count) }
        var lo = -12.0
        var hi = 12.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if mean(mid) < target { lo = mid } else { hi = mid }
        }
        let shift = (lo + hi) / 2
        var out = slots
        for (k, i) in moving.enumerated() { out[i] = 1 / (1 + exp(-(logits[k] + shift))) }
        return out
    }

    /// Each section's accuracy on the questions of topics the learner has tried: the model's mean
    /// there as a prior worth its share of `strength` answers, plus that section's test evidence
    /// (evidence recorded without sections is shared out by size). nil: nothing tried in it.
    static func sectionTargets(
        format: TestFormat, model: [[Double]], untried: [[Bool]], strength: Double,
        evidence: TestEvidence
    ) -> [Double?] {
        let moving = model.indices.map { i in model[i].indices.filter { !untried[i][$0] }.map { model[i][$0] } }
        let slotCount = Double(max(moving.reduce(0) { $0 + $1.count }, 1))
        let attributed = evidence.bySection.values.reduce(TestEvidence.Score()) { $0 + $1 }
        let unattributed = TestEvidence.Score(
            correct: max(0, evidence.correct - attributed.correct),
            total: max(0, evidence.total - attributed.total))
        return format.sections.indices.map { i -> Double? in
            guard i < moving.count, !moving[i].isEmpty else { return nil }
            let share = Double(moving[i].count) / slotCount
            let mean = moving[i].reduce(0, +) / Double(moving[i].count)
            let own = evidence.bySection[format.sections[i].name] ?? TestEvidence.Score()
            let right = own.correct + share * unattributed.correct
            let asked = own.total + share * unattributed.total
            return (strength * share * mean + right) / (strength * share + asked)
        }
    }

    // MARK: - Exact pass probability

    /// The exact probability of passing `format` when question `j` of section `i` is answered right
    /// with probability `sectionSuccess[i][j]`, independently. Each counted section's number of
    /// right answers is Poisson-binomial (computed exactly); outcomes under the section's own
    /// minimum fail; the counted sections' totals must reach `format.passCorrect` (else 80%,
    /// rounded up, as `ExamScoring` does); each `separate` section must reach its own minimum and
    /// multiplies in as an independent event. A missing section has no questions.
    public static func exactPassProbability(format: TestFormat, sectionSuccess: [[Double]]) -> Double {
        var total: [Double] = [1]  // distribution of right answers over the counted sections
        var totalQuestions = 0
        var separatePass = 1.0
        for (i, section) in format.sections.enumerated() {
            let ps = i < sectionSuccess.count ? sectionSuccess[i] : []
            var dist = correctDistribution(ps)
            let minimum = section.passCorrect ?? 0
            if section.separate {
                separatePass *= tail(dist, from: minimum)
                continue
            }
            for k in 0..<min(max(minimum, 0), dist.count) { dist[k] = 0 }
            total = convolve(total, dist)
            totalQuestions += ps.count
        }
        let needed = format.passCorrect ?? Int((Double(totalQuestions) * 0.8).rounded(.up))
        return min(1, max(0, tail(total, from: needed) * separatePass))
    }

    /// `d[k]` = probability of exactly `k` right answers (Poisson-binomial, O(n²)).
    static func correctDistribution(_ ps: [Double]) -> [Double] {
        var d = [Double](repeating: 0, count: ps.count + 1)
        d[0] = 1
        for (i, raw) in ps.enumerated() {
            let p = raw.isNaN ? 0 : min(max(raw, 0), 1)
            let q = 1 - p
            var k = i + 1
            while k > 0 {
                d[k] = d[k] * q + d[k - 1] * p
                k -= 1
            }
            d[0] *= q
        }
        return d
    }

    static func convolve(_ a: [Double], _ b: [Double]) -> [Double] {
        var c = [Double](repeating: 0, count: a.count + b.count - 1)
        for i in a.indices where a[i] != 0 {
            for j in b.indices { c[i + j] += a[i] * b[j] }
        }
        return c
    }

    static func tail(_ d: [Double], from k: Int) -> Double {
        var s = 0.0
        for i in max(k, 0)..<max(d.count, max(k, 0)) { s += d[i] }
        return s
    }
}
