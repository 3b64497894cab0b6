import Foundation

/// Per-question knowledge tracing: what one answer says about whether the learner *knows* a
/// question, and how that fades.
///
/// A right answer on a 4-option question is weak evidence on its own (a guess is right one time
/// in four), so each counted answer updates a probability of knowing by Bayes' rule (`slip`:
/// a learner who knows still errs sometimes; `guess`: one over the options). Seeing the answer and
/// its explanation then teaches: an unknown question becomes known with `learnFromExplanation`.
/// Memory fades toward what the learner would know of a question never studied, with a strength
/// (in days) that grows with each spaced right answer and resets after a miss.
///
/// An answer given soon after the answer was last shown may be *recognition* of that answer, not
/// knowledge of the rule (re-answering misses minutes after seeing them, retaking a test the same
/// evening): it counts as evidence by `evidenceWeight` — hardly at all within minutes, a fifth
/// after 4 hours, nearly fully after a day. A first answer to a question never seen counts fully.
/// Memory lasts longer only with *spaced* right answers (`spacingWeight`: a day or more apart);
/// massed repetition within hours builds little that lasts, so a crammed day is mostly gone in days.
///
/// Why not the FSRS card's retrievability, which every question also has? FSRS is fitted to
/// flashcard reviews: it has no guessing (a lucky right answer is full evidence), it treats an
/// answer seconds after being shown as a review (so re-answering misses at once reads as
/// mastery), and after a lapse it assumes relearning steps; its curve is also very flat (90% →
/// about 85% a day after a miss). The flashcards keep FSRS for scheduling, where it is right.
public enum Knowledge {
    /// A learner who knows the answer still gets it wrong this often (misreading, a slip).
    public static let slip = 0.05
    /// Chance that seeing the right answer and its explanation teaches an unknown question.
    public static let learnFromExplanation = 0.35
    /// Memory strength after the first counted answer (days for the known part to fall to 1/e).
    public static let firstStrengthDays = 2.0
    /// Each spaced right answer multiplies the strength by this.
    public static let strengthGrowth = 2.5
    /// Hours after the answer was shown for an answer to count half as evidence. Recognising a
    /// shown answer fades over hours for most learners and over about a day for those who
    /// memorise, so the weight is small for hours and near full only after a day: h²/(h² + 8²)
    /// (2 h: 6%, 4 h: 20%, 8 h: 50%, a day: 90%, two days: 97%).
    public static let recognitionHours = 8.0
    /// Hours between answers for a right answer's gain in lasting strength to reach 63% of a spaced one's.
    public static let spacingHours = 24.0
    /// An answer that counts for less than this is left out (minutes after the answer was shown).
    public static let minimumEvidenceWeight = 0.02

    /// First-attempt accuracy of a newcomer on a four-option question, by difficulty: a little
    /// better than guessing on hard questions, common sense on easy ones.
    public static func newcomerAccuracy(_ d: Difficulty) -> Double {
        switch d {
        case .easy: 0.62
        case .medium: 0.50
        case .hard: 0.40
        }
    }

    /// The chance a newcomer knows `q` (their accuracy with the luck taken out).
    public static func newcomerKnown(_ q: Question) -> Double {
        known(fromAccuracy: newcomerAccuracy(q.difficulty), guess: guess(q))
    }

    /// Chance of a right answer by luck alone.
    public static func guess(_ q: Question) -> Double {
        q.kind == .fillIn || q.answers.isEmpty ? 0 : 1 / Double(q.answers.count)
    }

    /// P(right answer) for a learner who knows the question with probability `known`.
    public static func rightChance(known: Double, guess g: Double) -> Double {
        known * (1 - slip) + (1 - known) * g
    }

    /// The knowing probability that makes `accuracy` the expected right-answer chance.
    public static func known(fromAccuracy a: Double, guess g: Double) -> Double {
        min(0.99, max(0.01, (a - g) / (1 - slip - g)))
    }

    /// The knowledge a learner has of `stats`'s question at `now`: the traced estimate faded
    /// toward `floor` (what they would know of it unstudied), or nil if no answer counted.
    public static func known(_ stats: QuestionStats, at now: Date, floor: Double) -> Double? {
        guard let k = stats.knowledge, let at = stats.knowledgeAt else { return nil }
        let days = max(0, now.timeIntervalSince(at)) / 86_400
        return floor + (k - floor) * exp(-days / (stats.strengthDays ?? firstStrengthDays))
    }

    /// How much an answer at `at` counts as evidence of knowing the question (0...1): fully for a
    /// question never answered, less the sooner it comes after its answer was last shown.
    public static func evidenceWeight(_ stats: QuestionStats?, at: Date) -> Double {
        guard let stats, stats.seen > 0 else { return 1 }
        let hours = max(0, at.timeIntervalSince(stats.lastAnsweredAt)) / 3600
        return hours * hours / (hours * hours + recognitionHours * recognitionHours)
    }

    /// How spaced an answer at `at` is from the last one (0...1): what a right answer adds to how
    /// long the memory lasts.
    static func spacingWeight(_ stats: QuestionStats, at: Date) -> Double {
        1 - exp(-max(0, at.timeIntervalSince(stats.lastAnsweredAt)) / 3600 / spacingHours)
    }

    /// Whether an answer at `at` would count as evidence at all (not recognition of an answer just shown).
    public static func counts(_ stats: QuestionStats?, at: Date) -> Bool {
        evidenceWeight(stats, at: at) >= minimumEvidenceWeight
    }

    /// `unstudied`: what this learner would know of the question without studying it (see
    /// `Readiness.FirstAnswers`); the prior of a first answer and the level memory fades to.
    static func update(_ stats: inout QuestionStats, correct: Bool, at: Date, question: Question, unstudied: Double?) {
        let w = evidenceWeight(stats, at: at)
        guard w >= minimumEvidenceWeight else { return }
        let g = guess(question)
        let floor = unstudied ?? newcomerKnown(question)
        let prior = known(stats, at: at, floor: floor) ?? floor
        let posterior =
            correct
            ? prior * (1 - slip) / (prior * (1 - slip) + (1 - prior) * g)
            : prior * slip / (prior * slip + (1 - prior) * (1 - g))
        // Recognition is part of what a soon-repeated answer shows: only the weight's share moves the estimate.
        let moved = prior + w * (posterior - prior)
        let traced = stats.knowledge != nil
        stats.knowledge = moved + (1 - moved) * learnFromExplanation * w
        stats.knowledgeAt = at
        let strength = stats.strengthDays ?? firstStrengthDays
        if correct && traced {
            stats.strengthDays = strength * (1 + (strengthGrowth - 1) * spacingWeight(stats, at: at))
        } else {
            stats.strengthDays = traced ? strength + (firstStrengthDays - strength) * w : firstStrengthDays
        }
    }
}
