import Foundation

/// What a tapped button does: the action decoded strictly from its callback data, or a stale button.
extension Reduction {
    mutating func handleButton(_ callbackID: String, _ action: ButtonAction?, messageID: Int64) {
        guard let action else {
            effects.append(.answerButton(callbackID: callbackID, toast: .garbledButton))
            return showCurrentScreen()
        }
        let ack = Effect.answerButton(callbackID: callbackID, toast: nil)
        switch action {
        case .answer(let quizID, let index, let option):
            guard let quiz = state.session.quiz, quiz.id == quizID else { return stale(callbackID) }
            if index < quiz.index || (index == quiz.index && quiz.phase == .answered) {
                effects.append(.answerButton(callbackID: callbackID, toast: .alreadyAnswered))
                return
            }
            guard index == quiz.index, let q = banks.question(quiz.currentQuestionID),
                q.answers.indices.contains(option)
            else {
                return stale(callbackID)
            }
            effects.append(ack)
            answer(original: option, target: .id(messageID))
        case .next(let quizID, let index):
            guard let quiz = state.session.quiz, quiz.id == quizID else {
                // The last "See results" of a finished quiz, tapped twice: nothing to do.
                if state.results.last?.quizID == quizID {
                    effects.append(ack)
                    return
                }
                return stale(callbackID)
            }
            if index < quiz.index {
                effects.append(ack)
                return
            }
            guard index == quiz.index, quiz.phase == .answered else { return stale(callbackID) }
            effects.append(ack)
            advance()
        case .menu(let item):
            effects.append(ack)
            go(item)
        case .pickState(let code), .switchState(let code):
            guard let picked = banks.state(code) else {
                effects.append(.answerButton(callbackID: callbackID, toast: .garbledButton))
                return showCurrentScreen()
            }
            effects.append(ack)
            // A pick asks first if a test is open; "Switch to …" is the answer to that question.
            if case .switchState = action { switchState(to: picked) } else { requestState(picked) }
        case .pickTopic(let topic):
            effects.append(ack)
            startQuiz(.topic(topic))
        case .startTest(let number):
            effects.append(ack)
            startQuiz(.practiceTest(number: number))
        case .missesPage(let quizID, let page):
            effects.append(ack)
            showMisses(quizID: quizID, page: page)
        case .setNudgeTime(let minute):
            effects.append(ack)
            state.learner.nudgeMinute = minute
            state.learner.nudgesOn = true
            showSettings()
        case .setZone(let index):
            effects.append(ack)
            if let zones = stateInfo?.timeZones, zones.indices.contains(index) { state.learner.timeZone = zones[index] }
            showSettings()
        case .showCard(let seq, let index):
            guard let run = state.session.cards, run.seq == seq, run.index == index else {
                return staleCard(callbackID, seq: seq)
            }
            if run.showingAnswer {
                effects.append(.answerButton(callbackID: callbackID, toast: .alreadyAnswered))
                return
            }
            effects.append(ack)
            revealCard(target: .id(messageID))
        case .rateCard(let seq, let index, let rating):
            guard let run = state.session.cards, run.seq == seq, run.index == index, run.showingAnswer else {
                return staleCard(callbackID, seq: seq)
            }
            effects.append(ack)
            rateCard(rating)
        case .signGroup(let group):
            effects.append(ack)
            showSign(group, 0)
        case .signAt(let group, let index):
            effects.append(ack)
            showSign(group, index)
        case .quizSigns(let group):
            effects.append(ack)
            startQuiz(.signGroup(group))
        case .openLesson(let id):
            effects.append(ack)
            openLesson(id)
        case .nextLessonCard(let seq, let card):
            nextLessonCard(callbackID, seq: seq, card: card)
        case .topicLessons(let topic):
            effects.append(ack)
            showTopicLessons(topic)
        case .askQuiz(let ref):
            effects.append(ack)
            startQuiz(.asked(ref))
        case .askShow(let ref): showAsked(ref, callbackID: callbackID)
        case .askVote(let ref, let helpful): voteAsked(ref, helpful: helpful, callbackID: callbackID)
        case .removeFriend(let key): askToUnfriend(key, callbackID: callbackID)
        case .unfriend(let key): unfriend(key, callbackID: callbackID)
        case .challengeFriend(let key): challengeFriend(key, callbackID: callbackID)
        }
    }

    mutating func stale(_ callbackID: String) {
        effects.append(.answerButton(callbackID: callbackID, toast: .staleButton))
        showCurrentScreen()
    }
}
