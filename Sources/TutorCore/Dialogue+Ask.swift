import Foundation

/// A typed question answered with the one card of the banks that answers it (the edge looked it
/// up: `DialogueContext.asked`), or declined in a friendly line with the nearest topics.
extension Reduction {
    /// Whether typed text gets an answer from the banks: a card was found (it may be a bare
    /// "yellow diamond sign meaning"), or it reads as a question (declined if nothing answers it).
    func asksTheTutor(_ text: String) -> AskLookup? {
        guard let asked = ctx.asked else { return nil }
        if Reduction.readsAsAQuestion(text) || asked.offTopic { return asked }
        // A bare "c" or "5" on Home is a stray tap, not a question, even if some card holds it; a
        // bare "curfew" or "roundabout" is a question put in one word.
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let putInWords = words.count >= 2 ? words.contains(where: { $0.count >= 4 }) : words.first.map { $0.count >= 5 }
        return asked.best != nil && putInWords == true ? asked : nil
    }

    /// Mid-quiz, only a real question is one: "stop sign" or "idk" there is an attempt at the answer.
    func asksTheTutorMidQuiz(_ text: String) -> AskLookup? {
        guard Reduction.readsAsAQuestion(text) else { return nil }
        return asksTheTutor(text)
    }

    /// A question typed mid-quiz is answered, then the open question shown again; in a practice
    /// test it waits (the real test has no one to ask either).
    mutating func answerMidQuiz(_ text: String, _ asked: AskLookup, _ quiz: QuizRun) {
        if quiz.mode.isPracticeTest { return send(.notice(.askAfterTheTest)) }
        answerAsked(text, asked)
        backToTheQuiz()
    }

    /// "what does that mean" under an answered question: the lesson card that teaches it (the
    /// card of its lesson sharing most words with the question and its explanation), then Next.
    /// A play-tester's got "I only know the permit test".
    mutating func explainCurrentQuestion(_ q: Question) {
        let ref = AskRef(AskQuizPicker.card(teaching: q, banks: banks)?.id ?? q.id)
        guard let view = askAnswerView(ref, stateCode: askStateCode(ref)) else { return backToTheQuiz() }
        send(Reply(.askAnswer(view), buttons: answerButtons(ref, alternative: nil), picture: askPicture(ref)))
        backToTheQuiz()
    }

    /// Back to the open quiz after something typed: a question already answered (Next waiting)
    /// gets a line and its Next button, not the question and its explanation again (a play-tester
    /// got them ten times); a question still open is shown again.
    mutating func backToTheQuiz(_ line: Notice = .backToTheQuiz) {
        guard let quiz = state.session.quiz, quiz.phase == .answered, banks.question(quiz.currentQuestionID) != nil
        else { return resume() }
        state.session.screen = .quiz
        send(.notice(line), buttons: [[nextButton(quiz)]])
    }

    mutating func answerAsked(_ text: String, _ asked: AskLookup) {
        effects.append(.recordAsk(AskRecord(text: text, ref: asked.best?.raw, askedAt: ctx.now)))
        guard let ref = asked.best, var view = askAnswerView(ref, stateCode: asked.stateCode, question: text) else {
            send(
                .askDeclined(AskDeclinedView(topics: asked.nearestTopics)),
                buttons: declinedButtons(asked.nearestTopics))
            return
        }
        view.beyondTheCard = ref.kind == .state && asked.beyondTheStateCard
        send(
            Reply(
                .askAnswer(view), buttons: answerButtons(ref, alternative: asked.alternative), picture: askPicture(ref))
        )
    }

    /// "Or did you mean…" tapped: the other card, as an answer of its own.
    mutating func showAsked(_ raw: String, callbackID: String) {
        let ref = AskRef(raw)
        guard let view = askAnswerView(ref, stateCode: askStateCode(ref)) else { return stale(callbackID) }
        effects.append(.answerButton(callbackID: callbackID, toast: nil))
        send(Reply(.askAnswer(view), buttons: answerButtons(ref, alternative: nil), picture: askPicture(ref)))
    }

    mutating func voteAsked(_ raw: String, helpful: Bool, callbackID: String) {
        effects.append(.voteAsk(ref: raw, helpful: helpful))
        effects.append(.answerButton(callbackID: callbackID, toast: .thanksForVote))
    }

    /// A state's card answers for that state; a general one for the learner's.
    func askStateCode(_ ref: AskRef) -> String? {
        switch ref.kind {
        case .state: return ref.id
        case .rule: return ref.rule?.state
        case .card: return AskQuizPicker.card(ref.raw, banks: banks)?.lesson.stateCode ?? learner.stateCode
        case .question: return banks.question(ref.id)?.stateCode ?? learner.stateCode
        case .sign: return learner.stateCode
        }
    }

    /// The subjects of a lesson's title that one card is about: a speed-limit card of "Alcohol,
    /// speed and lights" is headed "Speed" (a play-tester found the whole list odd over it). The
    /// whole title when it names one subject, or the card names none of them, or all.
    static func titleOfTheCard(_ title: String, cardText: String) -> String {
        guard let kept = AskText.subjects(of: title, heldBy: Set(AskText.terms(cardText)), terms: AskText.terms),
            let last = kept.last
        else { return title }
        let named = kept.count == 1 ? last : kept.dropLast().joined(separator: ", ") + " and " + last
        return named.prefix(1).uppercased() + named.dropFirst()
    }

    /// `question`: what was typed, so a state's rules asked together lead with the one it asks
    /// about ("passenger limit" got the night limit first).
    func askAnswerView(_ ref: AskRef, stateCode: String?, question: String? = nil) -> AskAnswerView? {
        let answeringState = stateCode.flatMap(banks.state)
        let other = answeringState.flatMap { $0.code != learner.stateCode ? $0.name : nil }
        switch ref.kind {
        case .card:
            guard let (lesson, card) = AskQuizPicker.card(ref.raw, banks: banks) else { return nil }
            // A general card that says the state's own rule (📍 In Colorado, …) is that state's, not
            // "the same in every state".
            let saysState = answeringState.flatMap { s in
                card.stateRule.flatMap { banks.stateRules.sentence($0.rule, state: s) }
            }
            let own = lesson.stateCode.flatMap(banks.state) ?? (saysState != nil ? answeringState : nil)
            let text = card.text(for: answeringState, rules: banks.stateRules)
            let title = Self.titleOfTheCard(lesson.title, cardText: text)
            return AskAnswerView(
                body: .card(title: title, text: text), topic: lesson.topic ?? .stateSpecific,
                handbook: own?.handbook, section: title, otherState: own.map(\.name) == other ? other : nil)
        case .question:
            guard let q = banks.question(ref.id) else { return nil }
            let own = q.stateCode.flatMap(banks.state)
            return AskAnswerView(
                body: .question(question: q.questionText, answer: AskCorpus.answerText(q), explanation: q.explanation),
                topic: q.category, handbook: own?.handbook, section: nil, otherState: own != nil ? other : nil)
        case .sign:
            guard let sign = banks.signs.first(where: { $0.id == ref.id }) else { return nil }
            return AskAnswerView(body: .sign(sign), topic: .roadSigns, handbook: nil, section: nil, otherState: nil)
        case .rule:
            guard let (code, group) = ref.rule, let info = banks.state(code) else { return nil }
            // Headed by a rule it says: Georgia's unconfirmed curfew hour is not said, and its
            // answer was headed "Night limit (curfew)" over the passenger rule.
            let rules =
                (Self.saidWith[group] ?? []).flatMap(banks.stateRules.rules(inGroup:))
                + banks.stateRules.rules(inGroup: group)
            let said = Self.askedFirst(rules, question: question).compactMap { rule in
                banks.stateRules.sentence(rule.id, state: info).map { (rule.title, $0) }
            }
            guard let title = said.first?.0 else { return nil }
            let sentences = said.map(\.1)
            return AskAnswerView(
                body: .card(title: title, text: "📍 " + sentences.joined(separator: "\n📍 ")), topic: .stateSpecific,
                handbook: info.handbook, section: title, otherState: other)
        case .state:
            guard let info = banks.state(ref.id) else { return nil }
            return AskAnswerView(
                body: .state(
                    StateCardView(
                        state: info, ownQuestions: banks.stateQuestions[info.code]?.count ?? 0,
                        permitAgeDetail: banks.stateRules.entry("permitAge", state: info.code)?.detail)),
                topic: .stateSpecific, handbook: info.handbook, section: nil, otherState: other)
        }
    }

    /// Rules said before a rule's own, unless the question names that one: every learner is a
    /// teen, and a 15-year-old asking the "drunk limit" got only the adults' 0.08%.
    static let saidWith: [String: [String]] = ["adultBAC": ["under21"]]

    /// The rules the question's words name first ("how many friends can ride with me": the
    /// passenger limit before the night limit), the table's order otherwise.
    static func askedFirst(_ rules: [StateRule], question: String?) -> [StateRule] {
        guard let question, rules.count > 1 else { return rules }
        var asked = Set<String>()
        for word in AskText.rewritingPhrases(AskText.words(question)) {
            let own = AskText.stem(word)
            asked.insert(own)
            for synonym in AskText.synonyms[word] ?? AskText.synonyms[own] ?? [] { asked.insert(AskText.stem(synonym)) }
        }
        let named = rules.map { rule in AskText.terms(rule.title + " " + rule.says).filter(asked.contains).count }
        return rules.indices.sorted { named[$0] != named[$1] ? named[$0] > named[$1] : $0 < $1 }.map { rules[$0] }
    }

    func askPicture(_ ref: AskRef) -> String? {
        switch ref.kind {
        case .sign: return banks.signs.first(where: { $0.id == ref.id }) != nil ? ref.id : nil
        case .question: return banks.question(ref.id)?.imageAssetName
        case .card:
            return AskQuizPicker.card(ref.raw, banks: banks)?.card.imageAssetName
        case .state, .rule: return nil
        }
    }

    func answerButtons(_ ref: AskRef, alternative: AskRef?) -> [[Button]] {
        var rows: [[Button]] = []
        var first: [Button] = []
        if let lesson = AskQuizPicker.lesson(teaching: ref, banks: banks),
            lesson.stateCode == nil || lesson.stateCode == learner.stateCode
        {
            first.append(Button(.openTheLesson, .openLesson(lesson.id)))
        }
        // The state's test card (how many questions, the pass mark) teaches nothing to be quizzed on.
        if ref.kind != .state, AskQuizPicker.questions(for: ref, banks: banks, stateCode: learner.stateCode).count >= 2
        {
            first.append(Button(.quizMeOnThis, .askQuiz(ref.raw)))
        }
        if !first.isEmpty { rows.append(first) }
        if let alternative, let title = askTitle(alternative) {
            rows.append([Button(.didYouMean(title), .askShow(alternative.raw))])
        }
        rows.append([
            Button(.helpful(true), .askVote(ref.raw, helpful: true)),
            Button(.helpful(false), .askVote(ref.raw, helpful: false)),
            Button(.home, .menu(.home)),
        ])
        return rows
    }

    func declinedButtons(_ topics: [Topic]) -> [[Button]] {
        var rows = topics.map { [Button(.topic($0), .topicLessons($0))] }
        rows.append([Button(.topics, .menu(.topics)), Button(.home, .menu(.home))])
        return rows
    }

    /// At most `limit` characters, cut at a word ("When you park uphill with a curb, …").
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        let cut = text.prefix(limit)
        return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "…"
    }

    /// A short name for a card on a button: its lesson's title, the question, the sign, the test.
    func askTitle(_ ref: AskRef) -> String? {
        switch ref.kind {
        // A card's own first words: two cards of one lesson share its title.
        case .card:
            return AskQuizPicker.card(ref.raw, banks: banks).map {
                Self.shortened($0.card.text.replacingOccurrences(of: "\n", with: " "), to: 52)
            }
        case .question: return banks.question(ref.id).map { Self.shortened($0.questionText, to: 52) }
        case .sign:
            // Lights, markings and scenes are no signs ("Steady Yellow Light", not "… sign").
            return banks.signs.first(where: { $0.id == ref.id }).map {
                [.signal, .marking, .scene].contains($0.group) ? $0.name : "\($0.name) sign"
            }
        case .state: return banks.state(ref.id).map { "The \($0.name) permit test" }
        case .rule: return ref.rule.flatMap { banks.stateRules.rules(inGroup: $0.rule).first?.title }
        }
    }
}
