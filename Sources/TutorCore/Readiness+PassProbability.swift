import Foundation

/// The exact pass probability of a state's test format, given each slot's chance.
extension Readiness {
    // MARK: - Exact pass probability

    /// The exact probability of passing `format` when question `j` of section `i` is answered right
    /// with probability `sectionSuccess[i][j]`, independently. Each counted section's number of
    /// right answers is Poisson-binomial (computed exactly); outcomes under the section's own
    /// minimum fail; the counted sections' totals must reach `format.passCorrect` (else 80%,
    /// rounded up, as `ExamScoring` does); each `separate` section must reach its own minimum and
    /// multiplies in as an independent event. A missing section has no questions.
    public static func exactPassProbability(format: TestFormat, sectionSuccess: [[Double]]) -> Double {
        var total: [Double] = [1]        // distribution of right answers over the counted sections
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
            let p = raw.isNaN ? 0 : min(max(raw, 0), 1), q = 1 - p
            var k = i + 1
            while k > 0 { d[k] = d[k] * q + d[k - 1] * p; k -= 1 }
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
