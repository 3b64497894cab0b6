import Foundation
import Mustache
import TutorCore

/// Names and button labels, from strings.json.
extension Prompts {
    // MARK: - names

    public func topicName(_ t: Topic) -> String { strings.topics[t.rawValue] ?? t.rawValue }

    public func modeName(_ m: QuizMode) -> String {
        switch m {
        case .quick: return text(strings.modes["quick"] ?? "Quick quiz")
        case .review: return text(strings.modes["review"] ?? "Review")
        case .topic(let t): return text(strings.modes["topic"] ?? "{{topic}}", ["topic": topicName(t)])
        case .practiceTest(0): return text(strings.modes["randomTest"] ?? "Random test")
        case .practiceTest(let n):
            return text(strings.modes["practiceTest"] ?? "Test {{number}}", ["number": String(n)])
        case .timedChallenge: return text(strings.modes["timedChallenge"] ?? "Think Fast")
        case .livesChallenge: return text(strings.modes["livesChallenge"] ?? "3 lives")
        case .signGroup(let g): return text(strings.modes["signGroup"] ?? "{{group}}", ["group": signGroupName(g)])
        case .lessonCheck: return text(strings.modes["lessonCheck"] ?? "Check yourself")
        case .challenge: return text(strings.modes["challenge"] ?? "Friend challenge")
        case .daily: return text(strings.modes["daily"] ?? "Daily challenge")
        case .asked: return text(strings.modes["asked"] ?? "Quiz on this")
        }
    }

    public func signGroupName(_ g: SignGroup) -> String { strings.signGroups?[g.rawValue] ?? g.rawValue }

    /// A badge's name and the line that says why it was earned.
    public func badge(_ b: Badge) -> (name: String, why: String) {
        let entry = strings.badges?[b.rawValue] ?? []
        return (entry.first ?? b.rawValue, entry.count > 1 ? entry[1] : "")
    }

    public func commandDescription(_ c: Command) -> String { strings.commands[c.rawValue] ?? c.rawValue }

    public func label(_ l: ButtonLabel) -> String {
        let b = strings.buttons
        switch l {
        case .letter(let s): return s
        case .state(let name): return name
        case .topic(let t): return topicName(t)
        case .yesState(let name): return text(b["yesState"] ?? "Yes, {{name}}", ["name": name])
        case .pickAnother: return b["pickAnother"] ?? "Pick another"
        case .switchTo(let name): return text(b["switchTo"] ?? "Switch to {{name}}", ["name": name])
        case .backToTest: return b["backToTest"] ?? "Back to my test"
        case .doneForNow: return b["doneForNow"] ?? "Done for now"
        case .leaveDaily: return b["leaveDaily"] ?? "Leave the Daily 5"
        case .messagesBackOn: return b["messagesBackOn"] ?? "Turn messages back on"
        case .challengeFriend: return b["challengeFriend"] ?? "Challenge a friend"
        case .shareChallenge: return b["shareChallenge"] ?? "Send to a friend"
        case .pickMyState: return b["pickMyState"] ?? "Pick my state"
        case .friends: return b["friends"] ?? "Friends"
        case .challengeBack(let name): return text(b["challengeBack"] ?? "Challenge {{name}} back", ["name": name])
        case .challengeNamed(let name): return text(b["challengeNamed"] ?? "Challenge {{name}}", ["name": name])
        case .playChallenge(let name): return text(b["playChallenge"] ?? "Play {{name}}'s challenge", ["name": name])
        case .daily(let done): return (done ? b["dailyDone"] : b["daily"]) ?? "Daily 5"
        case .dailyScore(let score, let total):
            return text(
                b["dailyScore"] ?? "Daily 5: {{score}}/{{total}}", ["score": String(score), "total": String(total)])
        case .removeFriend(let name): return text(b["removeFriend"] ?? "Remove {{name}}", ["name": name])
        case .confirmUnfriend(let name): return text(b["confirmUnfriend"] ?? "Yes, remove {{name}}", ["name": name])
        case .keepFriend(let name): return text(b["keepFriend"] ?? "Keep {{name}}", ["name": name])
        case .hideFromFriends(let on):
            return (on ? b["hideFromFriendsOn"] : b["hideFromFriendsOff"])
                ?? (on ? "Hide me from my friends' league" : "Show me in my friends' league")
        case .learn(let topic, let number, let count, let continuing, let stateName):
            let name = stateName.map { text(b["stateRules"] ?? "{{state}} rules", ["state": $0]) } ?? topicName(topic)
            return text(
                b[continuing ? "continueLesson" : (number == 1 && topic == .roadSigns ? "startLearning" : "learn")]
                    ?? "Learn: {{topic}} · lesson {{number}} of {{count}}",
                ["topic": name, "number": String(number), "count": String(count)])
        case .openTheLesson: return b["openTheLesson"] ?? "Open the lesson"
        case .quizMeOnThis: return b["quizMeOnThis"] ?? "Quiz me on this"
        case .didYouMean(let title): return text(b["didYouMean"] ?? "Or did you mean: {{title}}", ["title": title])
        case .helpful(let yes): return (yes ? b["helpful"] : b["notHelpful"]) ?? (yes ? "👍" : "👎")
        case .nextCard: return b["nextCard"] ?? "Next"
        case .checkYourself(1): return text(b["checkYourselfOne"] ?? "Check yourself (1 question)")
        case .checkYourself(let n):
            return text(b["checkYourself"] ?? "Check yourself ({{count}})", ["count": String(n)])
        case .testOut(let needed, let total):
            return text(
                b["testOut"] ?? "Test out ({{needed}} of {{total}})",
                ["needed": String(needed), "total": String(total)])
        case .nextLesson: return b["nextLesson"] ?? "Next lesson"
        case .quizTopic: return b["quizTopic"] ?? "Quiz me on this topic"
        case .lesson(let number, let title, let done):
            return text(
                b[done ? "lessonDone" : "lesson"] ?? "{{number}}. {{title}}",
                ["number": String(number), "title": title])
        case .lessonsAllDone: return b["lessonsAllDone"] ?? "All lessons done"
        case .topicProgress(let t, let done, let total):
            return text(
                b[done == total ? "topicAllDone" : "topicProgress"] ?? "{{topic}} · {{done}}/{{total}}",
                ["topic": topicName(t), "done": String(done), "total": String(total)])
        case .reviewMissed(let n): return text(b["reviewMissed"] ?? "Review ({{count}})", ["count": String(n)])
        case .continueQuiz(let n, let total):
            return text(b["continueQuiz"] ?? "Continue", ["number": String(n), "total": String(total)])
        case .next: return b["next"] ?? "Next"
        case .seeResults: return b["seeResults"] ?? "Results"
        case .home: return b["home"] ?? "Home"
        case .quickQuiz: return b["quickQuiz"] ?? "Quick quiz"
        case .topics: return b["topics"] ?? "Topics"
        case .progress: return b["progress"] ?? "Progress"
        case .settings: return b["settings"] ?? "Settings"
        case .help: return b["help"] ?? "Help"
        case .about: return b["about"] ?? "About"
        case .reviewMyMisses: return b["reviewMyMisses"] ?? "Review my misses"
        case .tryAnother: return b["tryAnother"] ?? "Try another"
        case .changeState: return b["changeState"] ?? "Change state"
        case .otherState: return b["otherState"] ?? "Another state"
        case .keepState(let name): return text(b["keepState"] ?? "Keep {{name}}", ["name": name])
        case .practiceTest: return b["practiceTest"] ?? "Practice test"
        case .timedChallenge: return b["timedChallenge"] ?? "Think Fast"
        case .randomTest: return b["randomTest"] ?? "Random test"
        case .morePages: return b["morePages"] ?? "More"
        case .testNumber(let n, let passed):
            return text(
                b["testNumber"] ?? "Test {{number}}",
                ["number": String(n), "mark": passed.map { $0 ? " ✅" : " ❌" } ?? ""])
        case .seeMisses(let n): return text(b["seeMisses"] ?? "Misses ({{count}})", ["count": String(n)])
        case .revealAnswers(let on):
            return (on ? b["revealOn"] : b["revealOff"]) ?? (on ? "Show answers as I go" : "Reveal at the end")
        case .nudges(let on): return (on ? b["nudgesOn"] : b["nudgesOff"]) ?? (on ? "Reminders on" : "Reminders off")
        case .nudgeTime(let minute, let selected):
            return text(b[selected ? "nudgeTimeSelected" : "nudgeTime"] ?? "{{time}}", ["time": Prompts.clock(minute)])
        case .zone(let id, let selected):
            let zone = zoneName(id)
            return selected ? text(b["zoneSelected"] ?? "{{zone}}", ["zone": zone]) : zone
        case .deleteData: return b["deleteData"] ?? "Delete my data"
        case .confirmDelete: return b["confirmDelete"] ?? "Delete"
        case .keepData: return b["keepData"] ?? "Keep"
        case .flashcards(let due):
            guard due > 0 else { return b["flashcardsNone"] ?? "Flashcards" }
            return text(
                b["flashcards"] ?? "Flashcards ({{due}} due)",
                ["due": String(due), "minutes": String(Prompts.cardMinutes(due))])
        case .showAnswer: return b["showAnswer"] ?? "Show answer"
        case .rate(let r, let simple):
            switch (r, simple) {
            case (.again, true): return b["needPractice"] ?? "Need practice"
            case (_, true): return b["knewIt"] ?? "Knew it"
            case (.again, false): return b["rateAgain"] ?? "Again"
            case (.hard, false): return b["rateHard"] ?? "Hard"
            case (.good, false): return b["rateGood"] ?? "Good"
            case (.easy, false): return b["rateEasy"] ?? "Easy"
            }
        case .gallery: return b["gallery"] ?? "Road signs"
        case .livesChallenge: return b["livesChallenge"] ?? "3 lives"
        case .previous: return b["previous"] ?? "Previous"
        case .nextSign: return b["nextSign"] ?? "Next"
        case .quizMeOnThese: return b["quizMeOnThese"] ?? "Quiz me"
        case .signGroup(let g): return signGroupName(g)
        case .fourButtons(let on): return (on ? b["fourButtonsOn"] : b["fourButtonsOff"]) ?? "Card buttons"
        }
    }

    /// Minutes a session of `cards` takes (at most one session's worth), rounded up: the honest estimate.
    static func cardMinutes(_ cards: Int) -> Int {
        max(1, (min(cards, 20) * 8 + 59) / 60)
    }

    /// 960 → "4 pm", 1050 → "5:30 pm": how US teens read a time.
    static func clock(_ minute: Int) -> String {
        let h = minute / 60
        let m = minute % 60
        let hour12 = h % 12 == 0 ? 12 : h % 12
        return (m == 0 ? "\(hour12)" : String(format: "%d:%02d", hour12, m)) + (h < 12 ? " am" : " pm")
    }

    /// "Central time (Chicago)": a Houston teen offered "Chicago / Denver" didn't know which was
    /// theirs. Zones the strings don't name show their city ("America/Boise" → "Boise").
    func zoneName(_ id: String) -> String {
        strings.timeZones?[id] ?? id.split(separator: "/").last.map { $0.replacingOccurrences(of: "_", with: " ") }
            ?? id
    }

    /// "1st", "2nd", "3rd", "4th", "11th", "22nd".
    static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }
}
