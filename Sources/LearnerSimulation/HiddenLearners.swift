import Foundation
import TutorCore

/// The hidden truth of a simulated learner: how likely they are to answer each question right at
/// a given moment, and how seeing a question (or a lesson) changes that. The bot never sees this,
/// only right and wrong answers; the calibration bench compares its prediction with the exact pass
/// chance this knowledge gives on the state's real test format.
///
/// Three generators, each built on different assumptions, so that a pass chance calibrated on one
/// is checked against the others. None of them is the bot's own model (`Knowledge`/`Readiness`):
/// a number tuned against a simulator written beside the estimator proves only self-consistency.
public enum Generator: String, CaseIterable, Sendable {
    /// Known-or-not per question from a logistic ability × topic/difficulty ease; learning needs
    /// spaced exposure; memory fades on a Weibull curve whose strength triples with each spaced recall.
    case logistic
    /// Every question has its own hidden difficulty, unrelated to its easy/medium/hard label (which
    /// the estimator uses); knowledge is a graded recall probability, not known-or-not; each
    /// exposure adds a trace that fades exponentially with a half-life doubling on spaced exposures.
    case itemDifficulty
    /// Strong, topic-lumpy prior knowledge (each topic's own ability, spread wide) shown only through
    /// first answers; studying is memorising the very item by repetition, with no transfer to unseen
    /// ones and no help from lessons; memory fades on a hyperbolic (power-law) curve.
    case memoriser
    /// Two memories per question: knowing the rule, which transfers to the real test's own wording,
    /// and *recognising* this question's answer, seen minutes or hours ago, which does not. Recognition
    /// fades over hours (over a day for a learner who memorises); the rule is learnt mostly from
    /// spaced recall (a right answer a day or more after the last), barely from massed repetition,
    /// and it fades over days on a power curve. Answers draw on both; the real test on the rule alone.
    case recognition
}

/// One learner's hidden knowledge under one generator.
struct HiddenKnowledge {
    struct Item {
        /// What they know of it without studying: known for sure (logistic), or a recall chance.
        var prior: Double
        /// Studied trace: strength (days), last exposure, and (memoriser) how many times it was seen.
        var strength: Double? = nil
        var last: Date? = nil
        var count = 0
        /// Recognition generator: when this question's answer was last shown.
        var shown: Date? = nil
    }

    let generator: Generator
    var items: [String: Item] = [:]
    /// Picks the longest option and knows nothing (the guesser pattern).
    let guessesLongest: Bool
    /// Recognition generator: hours for recognising a shown answer to fall to 1/e (long for a
    /// learner who memorises answers, short for one who does not).
    var recognitionHours = 6.0

    /// `ability`: the learner's standard-normal ability draw plus the pattern's offset, in logits.
    init(generator: Generator, pool: [Question], ability: Double, guessesLongest: Bool, random: inout SeededRandom) {
        self.generator = generator
        self.guessesLongest = guessesLongest
        var topicAbility: [Topic: Double] = [:]
        for q in pool {
            let prior: Double
            switch generator {
            case .logistic:
                let ease: Double =
                    switch q.difficulty {
                    case .easy: 0.3
                    case .medium: -0.5
                    case .hard: -1.2
                    }
                let topicEase = q.category == .stateSpecific ? -0.8 : (q.category == .roadSigns ? 0.3 : 0)
                prior = random.unit() < Self.logistic(ability + ease + topicEase) ? 1 : 0
            case .itemDifficulty:
                let itemDifficulty = 1.2 * Self.normal(&random)
                prior = Self.logistic(1.3 * (ability - itemDifficulty))
            case .memoriser:
                if topicAbility[q.category] == nil { topicAbility[q.category] = ability + 1.2 * Self.normal(&random) }
                prior = random.unit() < Self.logistic(topicAbility[q.category]! - 0.6) ? 0.98 : 0
            case .recognition:
                let ease: Double =
                    switch q.difficulty {
                    case .easy: 0.1
                    case .medium: -0.6
                    case .hard: -1.0
                    }
                prior = 0.9 * Self.logistic(1.1 * ability + ease + 0.4 * Self.normal(&random))
            }
            items[q.id] = Item(prior: guessesLongest ? 0 : prior)
        }
        if generator == .recognition { recognitionHours = random.unit() < 0.35 ? 30 : 5 }
    }

    static func logistic(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
    static func normal(_ random: inout SeededRandom) -> Double {
        (-2 * log(max(random.unit(), 1e-12))).squareRoot() * cos(2 * .pi * random.unit())
    }

    /// Chance of recalling `id` at `t`.
    func recall(_ id: String, at t: Date) -> Double {
        guard let item = items[id] else { return 0 }
        guard let s = item.strength, let last = item.last else { return item.prior }
        let days = max(0, t.timeIntervalSince(last)) / 86_400
        let studied: Double =
            switch generator {
            case .logistic: exp(-pow(days / s, 0.7))
            case .itemDifficulty: 0.95 * pow(0.5, days / s)
            case .memoriser: min(0.97, 1 - pow(0.55, Double(item.count))) / (1 + days / s)
            case .recognition: 0.95 / pow(1 + days / s, 1.3)
            }
        return max(item.prior, studied)
    }

    /// Chance of recognising `id`'s answer at `t` (recognition generator; 0 for the others).
    func recognised(_ id: String, at t: Date) -> Double {
        guard generator == .recognition, let shown = items[id]?.shown else { return 0 }
        return 0.9 * exp(-max(0, t.timeIntervalSince(shown)) / 3600 / recognitionHours)
    }

    /// Chance of answering this very question right at `t`: the rule, or its answer recognised.
    func rightChance(_ q: Question, at t: Date) -> Double {
        if guessesLongest { return Self.keyIsLongest(q) ? 1 : 0 }
        let r = recall(q.id, at: t)
        let k = r + (1 - r) * recognised(q.id, at: t)
        return k * 0.97 + (1 - k) * (q.kind == .fillIn ? 0 : 1 / Double(q.answers.count))
    }

    /// Chance of answering the real test's question on the same rule right at `t`: the real test
    /// is worded its own way, so a recognised answer does not help there.
    func testChance(_ q: Question, at t: Date) -> Double {
        if guessesLongest { return Self.keyIsLongest(q) ? 1 : 0 }
        let r = recall(q.id, at: t)
        return r * 0.97 + (1 - r) * (q.kind == .fillIn ? 0 : 1 / Double(q.answers.count))
    }

    static func keyIsLongest(_ q: Question) -> Bool {
        let key = q.answers[q.correctAnswerIndex].count
        return q.answers.enumerated().allSatisfy { $0.offset == q.correctAnswerIndex || $0.element.count < key }
    }

    /// The learner answered `q` at `t` (right or not) and then saw the right answer explained.
    mutating func expose(_ q: Question, at t: Date, right: Bool, random: inout SeededRandom) {
        guard !guessesLongest, var item = items[q.id] else { return }
        let spaced = item.last.map { t.timeIntervalSince($0) >= 3600 } ?? true
        switch generator {
        case .logistic:
            guard item.prior < 1 else { return }
            if let s = item.strength {
                if spaced && random.unit() < recall(q.id, at: t) { item.strength = s * 3 }
            } else if random.unit() < (spaced ? 0.35 : 0.1) {
                item.strength = 1.5
            }
        case .itemDifficulty:
            // Graded: every exposure leaves a trace; spaced ones make it last twice as long.
            item.strength = item.strength.map { spaced ? $0 * 2 : $0 } ?? 1.0
        case .memoriser:
            // Rote: each exposure of this very item counts, crammed or not; it lasts longer with count.
            item.count += 1
            item.strength = 0.7 * Double(item.count)
        case .recognition:
            item.shown = t
            let gapDays = item.last.map { t.timeIntervalSince($0) / 86_400 } ?? .infinity
            if let s = item.strength {
                // Spaced recall of the rule makes it last; massed repetition adds little.
                if gapDays >= 1, random.unit() < recall(q.id, at: t) {
                    item.strength = s * 3
                } else if gapDays >= 1 {
                    item.strength = s * 1.3
                } else {
                    item.strength = s * (1 + 0.1 * min(1, gapDays * 4))
                }
            } else if random.unit() < (gapDays >= 1 ? 0.3 : 0.12) {
                item.strength = 0.8
            }
        }
        item.last = t
        items[q.id] = item
    }

    /// Reading a lesson that teaches `ids`.
    mutating func read(teaching ids: [String], at t: Date, random: inout SeededRandom) {
        guard !guessesLongest else { return }
        for id in ids {
            guard var item = items[id] else { continue }
            switch generator {
            case .logistic:
                guard item.prior < 1 else { continue }
                if item.strength == nil {
                    if random.unit() < 0.5 { item.strength = 1.0 }
                } else if random.unit() < 0.5 {
                    item.strength = (item.strength ?? 1) * 1.5
                }
            case .itemDifficulty:
                item.strength = max(item.strength ?? 0, 0.7)
            case .memoriser:
                continue  // no transfer: reading is not rehearsing the item
            case .recognition:
                if item.strength == nil { if random.unit() < 0.4 { item.strength = 0.8 } }
            }
            item.last = t
            items[id] = item
        }
    }
}
