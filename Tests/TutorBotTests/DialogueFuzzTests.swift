import Foundation
import Testing

@testable import TutorBot
@testable import TutorCore

/// Random events through `Dialogue.reduce` on the banks we ship: a trap anywhere in the core ends
/// the test process, so reaching the end is the assertion. The events are what Telegram can
/// deliver and what a stored row can hold: the buttons on the screen, stale buttons from earlier
/// screens, forged callback data (any numbers), typed text of every kind, timers for quizzes long
/// finished, clocks jumping days, and sessions whose stored numbers were changed behind the core's back.
///
/// `make test` runs 100,000 events (a debug build); `PERMITREADY_FUZZ_EVENTS=1000000` runs more
/// (the closing note of issue 39 gives a 1,000,000-event run).
@Suite struct DialogueFuzzTests {
    let banks: Banks

    init() throws {
        let (banks, problems) = try BankFiles.load("\(repoRoot)/Banks")
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        self.banks = try #require(banks)
    }

    static var eventCount: Int {
        ProcessInfo.processInfo.environment["PERMITREADY_FUZZ_EVENTS"].flatMap(Int.init) ?? 100_000
    }

    @Test func aMillionRandomEventsNeverTrapTheReducer() throws {
        var fuzz = DialogueFuzzer(banks: banks, seed: 0x5EED_F00D)
        let total = Self.eventCount
        while fuzz.events < total { fuzz.step() }
        // Sanity: the fuzzer reached the screens that hold the traps it is looking for.
        #expect(fuzz.screensSeen.count >= 12, "screens reached: \(fuzz.screensSeen.sorted())")
        #expect(fuzz.storedRowsChanged > total / 100)
        #expect(fuzz.buttonsOnScreen > total / 4)
    }
}

/// Plays one chat after another with random events; see `DialogueFuzzTests`.
struct DialogueFuzzer {
    let banks: Banks
    var random: SeededRandom
    var state: ChatState
    var now = Date(timeIntervalSince1970: 1_796_000_000)
    var onScreen: [ButtonAction] = []
    var seenButtons: [ButtonAction] = []
    var timers: [String] = []
    var events = 0, chatEvents = 0, chats = 0
    var screensSeen = Set<String>()
    var storedRowsChanged = 0, buttonsOnScreen = 0

    init(banks: Banks, seed: UInt64) {
        self.banks = banks
        random = SeededRandom(seed: seed)
        state = Dialogue.newChat(chatID: 1, sender: Sender(userID: 1, firstName: "Fuzz"), isGroup: false, now: now)
    }

    mutating func roll(_ n: Int) -> Int { Int(random.next() % UInt64(max(1, n))) }
    mutating func pick<T>(_ xs: [T]) -> T { xs[roll(xs.count)] }
    /// A number a forged button may carry: small, near the real ones, or absurd.
    mutating func anyNumber() -> Int {
        switch roll(6) {
        case 0: return -roll(5)
        case 1: return Int.max - roll(3)
        case 2: return Int.min + roll(3)
        default: return roll(60)
        }
    }

    static let texts = [
        "A", "b", "C", "d", "e", "1", "2", "3", "4", "5", "0", "99", "-1", "idk", "skip", "next", "ok", "k",
        "yes", "no", "stop sign", "diamond", "octagon", "crossing", "THC", "true", "false", "home", "menu",
        "quiz", "test", "hi", "Texas", "tx", "New York", "ZZ", "back", "help", "🚗", "", " ", "a b c",
        "what does a yellow diamond sign mean?", String(repeating: "x", count: 5000), "\u{0000}", "é\u{301}",
        "/start", "/start TX", "/start c_AAAAAAAAAAAAAAAAAAAAAA", "/start NY", "/quiz", "/test 9",
        "can i turn right on red??", "how many questions are on the test",
        "whats the capital of france",
    ]

    mutating func step() {
        events += 1
        chatEvents += 1
        if chatEvents > 400 + roll(800) { newChat() }
        // The clock: seconds usually, sometimes hours or days (a learner back next week).
        switch roll(20) {
        case 0: now += Double(3_600 * (1 + roll(30)))
        case 1: now += Double(86_400 * (1 + roll(9)))
        default: now += Double(roll(40))
        }
        if roll(50) == 0 { changeStoredRow() }
        let event = nextEvent()
        var ctx = DialogueContext(banks: banks, now: now, seed: random.next())
        if roll(3) == 0 { ctx.friends = friends() }
        switch roll(4) {
        case 0: ctx.dailySet = []
        case 1: ctx.dailySet = (0..<roll(7)).map { _ in pick(banks.universal).id }
        default: break
        }
        if roll(10) == 0 { ctx.freshToken = "tok\(roll(1_000_000))" }
        // What the edge's ask index found for typed text: a card, two, or none, some gone from the banks.
        if case .textSent = event, roll(3) > 0 {
            ctx.asked = AskLookup(
                best: roll(3) == 0 ? nil : anyRef(), alternative: roll(2) == 0 ? anyRef() : nil,
                stateCode: pick([nil, "TX", "MO", "ZZ"]),
                nearestTopics: roll(2) == 0 ? [] : [pick(Topic.allCases)])
        }
        let (next, effects) = Dialogue.reduce(state, event, ctx)
        state = next
        screensSeen.insert(String(describing: state.session.screen).prefix(while: { $0 != "(" }).description)
        var buttons: [ButtonAction] = []
        for effect in effects {
            switch effect {
            case .send(let r), .edit(_, let r):
                buttons += r.buttons.flatMap { $0 }.filter { $0.url == nil }.map(\.action)
            case .setTimer(let key, _): timers.append(key)
            case .eraseLearner: newChat()
            default: break
            }
        }
        if !buttons.isEmpty {
            onScreen = buttons
            seenButtons += buttons
            if seenButtons.count > 400 { seenButtons.removeFirst(200) }
        }
    }

    mutating func newChat() {
        chats += 1
        chatEvents = 0
        state = Dialogue.newChat(
            chatID: Int64(chats + 1), sender: Sender(userID: Int64(chats + 1), firstName: "Fuzz"),
            isGroup: roll(20) == 0, now: now)
        onScreen = []
        timers = []
    }

    mutating func nextEvent() -> Event {
        let callback = "cb\(events)"
        switch roll(100) {
        case 0..<45 where !onScreen.isEmpty:
            buttonsOnScreen += 1
            return .buttonTapped(callbackID: callback, action: pick(onScreen), messageID: Int64(roll(50)))
        case 45..<55 where !seenButtons.isEmpty:
            return .buttonTapped(callbackID: callback, action: pick(seenButtons), messageID: Int64(roll(50)))
        case 55..<65:
            return .buttonTapped(
                callbackID: callback, action: roll(8) == 0 ? nil : forgedAction(), messageID: Int64(roll(50)))
        case 65..<85:
            return .textSent(pick(Self.texts))
        case 85..<91:
            let command = pick(Command.allCases)
            let payload: String? = [nil, "TX", "NY", "KY", "zz", "c_x", String(repeating: "9", count: 80)][roll(7)]
            return .commandSent(command, payload: payload)
        case 91..<95:
            let key = timers.isEmpty || roll(4) == 0 ? "t:\(anyNumber()):\(anyNumber())" : pick(timers)
            return .timerFired(key: key)
        case 95..<97:
            return .nudgeDue
        default:
            return pick([
                .botBlocked, .botUnblocked, .messageEdited, .unsupportedContentSent(kind: "sticker"),
                .unknownCommandSent("foo"),
            ])
        }
    }

    /// A card a typed question might be answered with: one the banks hold, or one they don't (a reload took it).
    mutating func anyRef() -> AskRef {
        switch roll(9) {
        case 0: return AskRef(pick(banks.allLessons).cards.first?.id ?? "l-x-1-1")
        case 1: return AskRef(pick(banks.universal).id)
        case 2: return AskRef(pick(banks.stateQuestions["MO"] ?? []).id)
        case 3: return AskRef("sign:\(pick(banks.signs).id)")
        case 4: return AskRef("state:\(pick(["TX", "MO", "KY", "ZZ"]))")
        case 5: return AskRef(pick(banks.lessons(forState: "KY")).cards.last?.id ?? "l-ky-1-1")
        default: return AskRef(pick(["l-nope-9-9", "sign:", "state:", "u-missing", "l-", "x"]))
        }
    }

    mutating func forgedAction() -> ButtonAction {
        let code = pick(["TX", "NY", "KY", "CA", "ZZ", "", "tx"])
        switch roll(23) {
        case 20: return .askQuiz(anyRef().raw)
        case 21: return .askShow(anyRef().raw)
        case 22: return .askVote(anyRef().raw, helpful: roll(2) == 0)
        case 0: return .answer(quiz: anyNumber(), question: anyNumber(), option: anyNumber())
        case 1: return .next(quiz: anyNumber(), question: anyNumber())
        case 2: return .menu(pick(MenuItem.allCases))
        case 3: return .pickState(code)
        case 4: return .pickTopic(pick(Topic.allCases))
        case 5: return .startTest(anyNumber())
        case 6: return .missesPage(quiz: anyNumber(), page: anyNumber())
        case 7: return .setNudgeTime(anyNumber())
        case 8: return .setZone(anyNumber())
        case 9: return .showCard(seq: anyNumber(), index: anyNumber())
        case 10: return .rateCard(seq: anyNumber(), index: anyNumber(), rating: pick(Rating.allCases))
        case 11: return .signGroup(pick(SignGroup.allCases))
        case 12: return .signAt(pick(SignGroup.allCases), anyNumber())
        case 13: return .quizSigns(pick(SignGroup.allCases))
        case 14: return .switchState(code)
        case 15: return .openLesson(pick(["", "l-x", banks.lessonPath(forState: "TX").randomElement()?.id ?? "l"]))
        case 16: return .nextLessonCard(seq: anyNumber(), card: anyNumber())
        case 17: return .topicLessons(pick(Topic.allCases))
        case 18: return .removeFriend(pick(["", "a", "zz"]))
        default: return .unfriend(pick(["", "a", "zz"]))
        }
    }

    func friends() -> [FriendSummary] {
        (0..<3).map { i in
            FriendSummary(
                chatID: Int64(9_000 + i), firstName: "Friend\(i)", weekXP: i * 40, xpWeek: nil,
                streak: Streak(), hidden: i == 2)
        }
    }

    /// A stored session the core did not write: one of its numbers replaced, or one list shortened.
    mutating func changeStoredRow() {
        guard let data = try? JSONEncoder().encode(state.session),
            var json = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return }
        var paths: [[String]] = []
        func collect(_ value: Any, _ path: [String]) {
            if let d = value as? [String: Any] {
                for (k, v) in d { collect(v, path + [k]) }
            } else if let a = value as? [Any], !a.isEmpty {
                paths.append(path)
                if let first = a.first { collect(first, path + ["0"]) }
            } else if value is NSNumber {
                paths.append(path)
            }
        }
        collect(json, [])
        guard !paths.isEmpty else { return }
        let path = pick(paths)
        let replacement: Any = anyNumber()
        func change(_ value: Any, _ rest: ArraySlice<String>) -> Any {
            guard let key = rest.first else {
                if var a = value as? [Any] {
                    a.removeLast(min(a.count, 1 + roll(3)))
                    return a
                }
                return replacement
            }
            if var d = value as? [String: Any], let v = d[key] {
                d[key] = change(v, rest.dropFirst())
                return d
            }
            if var a = value as? [Any], let i = Int(key), i < a.count {
                a[i] = change(a[i], rest.dropFirst())
                return a
            }
            return value
        }
        json = change(json, path[...]) as? [String: Any] ?? json
        guard let changed = try? JSONSerialization.data(withJSONObject: json),
            let session = try? JSONDecoder().decode(Session.self, from: changed)
        else { return }
        state.session = session
        storedRowsChanged += 1
    }
}
