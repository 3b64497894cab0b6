import Foundation

/// The road-sign gallery: groups, one sign at a time, and a drill on a group.
extension Reduction {
    // MARK: - road-sign gallery

    mutating func showSignGroups() {
        state.session.screen = .gallery
        state.session.gallerySign = nil
        let groups = SignGroup.allCases.filter { g in banks.signs.contains { $0.group == g } }
        var rows = stride(from: 0, to: groups.count, by: 2).map { i in
            groups[i..<min(i + 2, groups.count)].map { Button(.signGroup($0), .signGroup($0)) }
        }
        rows.append([Button(.home, .menu(.home))])
        send(.pickSignGroup, buttons: rows)
    }

    mutating func showSign(_ group: SignGroup, _ index: Int) {
        let signs = banks.signs.filter { $0.group == group }
        guard !signs.isEmpty else { return showSignGroups() }
        let i = min(max(index, 0), signs.count - 1)
        state.session.screen = .gallery
        state.session.gallerySign = GallerySpot(group: group, index: i)
        // Always [Previous][Next], wrapping around, so the same spot on the screen always does
        // the same thing (a lone full-width Next on the first card put "back" under the thumb).
        var rows: [[Button]] =
            signs.count > 1
            ? [
                [
                    Button(.previous, .signAt(group, (i - 1 + signs.count) % signs.count)),
                    Button(.nextSign, .signAt(group, (i + 1) % signs.count)),
                ]
            ]
            : []
        rows.append([Button(.quizMeOnThese, .quizSigns(group))])
        rows.append([Button(.gallery, .menu(.gallery)), Button(.home, .menu(.home))])
        send(
            Reply(
                .signCard(SignCardView(sign: signs[i], number: i + 1, total: signs.count)), buttons: rows,
                picture: signs[i].id))
    }

    /// Questions of this state's pool the learner has answered at least once.
    func seenCount(_ code: String) -> Int {
        let ids = banks.poolIDs(for: code)
        return state.progress.keys.reduce(0) { $0 + (ids.contains($1) ? 1 : 0) }
    }

    /// The learner's chance of passing their state's test now (see `Readiness`), with the
    /// coverage behind it and what "Ready to test" still needs. Results count only in the state
    /// they were earned in. The number itself is shown only once first answers cover most of the
    /// test's topics: a figure built on the prior would tell an anxious beginner "3%" after two
    /// questions, which is neither true nor kind.
    func readiness(tests override: [QuizResult]? = nil) -> ReadinessSummary? {
        guard let info = stateInfo else { return nil }
        let tests = override ?? state.results.filter { $0.stateCode == info.code }
        let estimate = Readiness.estimate(
            progress: state.progress, pool: banks.pool(for: info.code), format: info.test, now: ctx.now, tests: tests)
        let status = Readiness.readyStatus(results: state.results, stateCode: info.code, estimate: estimate)
        var summary = ReadinessSummary(estimate: estimate, status: status)
        let total = info.test.sections.filter { !$0.separate }.reduce(0) { $0 + $1.questions }
        let needed = info.test.passCorrect ?? Int((Double(total) * 0.8).rounded(.up))
        summary.testQuestions = total
        summary.marginScore =
            total == 0
            ? 0 : min(total, Int((Double(needed) + Double(total) * Readiness.readyMarginPoints / 100).rounded(.up)))
        return summary
    }

    /// The chance shown on a practice test's results, with how that result reads beside it: a
    /// learner who just passed 21/25 and sees "45-70%" is told why (one close pass is evidence, not
    /// proof), a retake says it counts for less, and a miss among otherwise strong work is one sample.
    func readiness(after result: QuizResult) -> ReadinessSummary? {
        guard var summary = readiness(), summary.shown, let exam = result.exam else { return readiness() }
        let middle = (summary.lowPercent + summary.highPercent) / 2
        let earlier = state.results.filter { $0.stateCode == result.stateCode && $0.quizID != result.quizID }
        if case .practiceTest(let n) = result.mode, n != 0,
            result.retake == true || earlier.contains(where: { $0.mode == result.mode })
        {
            summary.reading = .retake
        } else if exam.passed && middle < 75 {
            summary.reading =
                result.passedWithMargin ? .onePassIsOneSample : .closePass(margin: exam.correct - exam.needed)
        } else if !exam.passed && summary.lowPercent >= 50 {
            // "This dips your chance" only where the range shown did go down: a play-tester saw
            // 95-100% before and after, and the words claiming a dip.
            let before = readiness(tests: earlier)
            let dipped =
                before.map { $0.shown && $0.lowPercent + $0.highPercent > summary.lowPercent + summary.highPercent }
                ?? false
            summary.reading = .failedUsuallyBetter(dipped: dipped)
        } else if !exam.passed, earlier.contains(where: { $0.mode.isPracticeTest }),
            let before = readiness(tests: earlier), before.shown,
            before.lowPercent + before.highPercent != summary.lowPercent + summary.highPercent
        {
            summary.reading =
                before.lowPercent + before.highPercent < summary.lowPercent + summary.highPercent
                ? .failedButBetter : .failedAndDown
        }
        return summary
    }

    /// This state's results only: a switch to another state starts its own record.
    var stateResults: [QuizResult] { state.results.filter { $0.stateCode == learner.stateCode } }
}
