import Drills
import FakeBotAPI
import Foundation
import LearnerSimulation
import TelegramAPI
import TutorBot
import TutorCore
import TutorStore

/// The pass chance against simulated learners whose true knowledge the bench knows.
extension BenchSuites {
    /// Readiness calibration (issues: an honest pass probability; one that holds for learners
    /// who don't learn the way our model assumes): simulated learners of every study pattern under
    /// three hidden-knowledge generators; every morning and after every practice test the range
    /// the learner would be shown against their exact chance of passing a fresh test.
    func calibration(states: [String], learners: Int, days: Int) throws {
        let banks = try banks()
        var all: [Calibration.Observation] = []
        let started = ContinuousClock.now
        for code in states {
            guard let state = banks.state(code) else {
                print("calibration: no state \(code)")
                continue
            }
            let lessons = banks.lessonTopics.flatMap { banks.lessons(for: $0) } + banks.lessons(forState: code)
            let report = Calibration.run(
                state: state, pool: banks.pool(for: code), learnersPerPattern: learners, days: days,
                truthTests: 0, seed: 1, lessons: lessons)
            all += report.observations
            print(
                "calibration \(code): \(report.shown.count) shown readings, decile error "
                    + "\(f3(report.calibrationError)), "
                    + "mean abs error \(pt(report.meanAbsoluteError)) points, truth in range \(pc(report.coverage))")
        }
        let report = Calibration.Report(observations: all)
        print(
            "calibration, all states: \(report.shown.count) shown of \(report.observations.count) readings "
                + "(\(String(format: "%.0f", (ContinuousClock.now - started).inSeconds)) s). Floors: decile error <= "
                + "0.040, "
                    + """
                    mean abs error <= 7.0 points, truth in range >= 85%, no pattern over-estimated by > 5 points, \
                    Ready never below a true 85%, a guesser never above 10%
                    """
        )
        print(
            "  generator        readings  decile err  abs err  in range  Brier   Ready<85%  guesser max  "
                + "over-estimated patterns"
        )
        for g in Generator.allCases {
            let r = report.only(g)
            let over = Calibration.Pattern.allCases.compactMap { p in
                r.bias(p).flatMap { $0 > 0.05 ? "\(p.rawValue) \(pt($0, sign: true))" : nil }
            }
            let guesser: String = r.maxPredicted(.longestOption).map { pc($0) } ?? "-"
            var line =
                "  " + g.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0)
                + String(format: "%8d", r.shown.count)
            line += "  " + f3(r.calibrationError).leftPad(10) + "  " + pt(r.meanAbsoluteError).leftPad(7)
            line += "  " + pc(r.coverage).leftPad(8) + "  " + f3(r.brier).leftPad(5)
            line += "  " + String(r.readyBelow(0.85)).leftPad(9) + "  " + guesser.leftPad(11)
            line += "  " + (over.isEmpty ? "none" : over.joined(separator: ", "))
            print(line)
        }
        for o in report.shown where o.ready && o.truth < 0.85 {
            print(
                "  Ready shown below a true 85%: \(o.generator.rawValue) × \(o.pattern.rawValue), day \(o.day), true "
                    + "\(pc(o.truth)), shown \(pc(o.low))-\(pc(o.high))"
            )
        }
        let readyTruths = report.shown.filter(\.ready).map(\.truth).sorted()
        if !readyTruths.isEmpty {
            print(
                "  \"Ready to test\" shown on \(readyTruths.count) readings; the lowest true chances then: "
                    + readyTruths.prefix(5).map { pc($0) }.joined(separator: ", "))
        }
        print(
            "  per pattern (all generators): shown − true in points, abs error, truth in range; then per generator "
                + "shown − true"
        )
        for p in Calibration.Pattern.allCases {
            let r = report.only(p)
            let perGenerator = Generator.allCases.map { g in report.only(g).bias(p).map { pt($0, sign: true) } ?? "-" }
            let bias: String = r.bias(p).map { pt($0, sign: true) } ?? "never shown"
            var line = "  " + p.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)
            line += bias.leftPad(12) + pt(r.meanAbsoluteError).leftPad(7) + pc(r.coverage).leftPad(7)
            line += "   " + zip(Generator.allCases, perGenerator).map { "\($0.rawValue) \($1)" }.joined(separator: ", ")
            print(line)
        }
        for g in Generator.allCases {
            for p in Calibration.Pattern.allCases {
                let r = report.only(g).only(p)
                guard let b = r.bias(p), b > 0.05 else { continue }
                print(
                    "  over-estimated: \(g.rawValue) × \(p.rawValue), shown − true by study day: "
                        + stride(from: 1, through: days, by: 7).map { d in
                            let week = Calibration.Report(
                                observations: r.observations.filter { (d...min(days, d + 6)).contains($0.day) })
                            return "days \(d)-\(min(days, d + 6)) " + (week.bias(p).map { pt($0, sign: true) } ?? "-")
                                + " (\(week.shown.count))"
                        }.joined(separator: " · "))
            }
        }
        print(
            "  mean range width by study day (points): "
                + stride(from: 1, through: days, by: 7).map { d in
                    let w = report.width(days: d...min(days, d + 6))
                    return "days \(d)-\(min(days, d + 6)) \(w.map { pt($0) } ?? "-")"
                }.joined(separator: " · "))
        print("  decile of what is shown   shown   true    n")
        for (i, d) in report.deciles.enumerated() where d.count > 0 {
            print(
                String(
                    format: "  %d0-%d0%%                   %5.1f%%  %5.1f%%  %d", i, i + 1, d.predicted * 100,
                    d.truth * 100, d.count))
        }
    }

    private func f3(_ x: Double) -> String { String(format: "%.3f", x) }
    private func pt(_ x: Double, sign: Bool = false) -> String { String(format: sign ? "%+.1f" : "%.1f", x * 100) }
    private func pc(_ x: Double) -> String { String(format: "%.0f%%", x * 100) }
}
