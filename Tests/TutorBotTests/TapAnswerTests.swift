import FakeBotAPI
import Foundation
import Logging
import TelegramAPI
import Testing
import TutorStore

@testable import TutorBot

/// Button taps are answered by callbacks on the curl thread (`TapAnswers`), not a task each:
/// every tap still gets its answer, a hiccup is retried, at most `limit` are in flight, and a
/// shut-down transport leaves nothing waiting.
@Suite(.serialized) struct TapAnswerTests {
    let chat: Int64 = 5301

    /// Telegram answering 502 twice: the tap is answered on the third try, by the running bot.
    @Test func aTapAnswerIsRetriedThroughAHiccup() async throws {
        let h = try Harness()
        try h.start()
        h.fake.say("/start NY", chat: chat)
        #expect(h.waitForText(chat, "Questions seen"))
        for _ in 0..<2 {
            h.fake.inject(
                "answerCallbackQuery", status: 502,
                body: ["ok": false, "error_code": 502, "description": "Bad Gateway"])
        }
        #expect(h.fake.press("⚡ Quick quiz", chat: chat))
        #expect(h.waitForText(chat, "Q1/10"))
        #expect(h.fake.wait { h.fake.unansweredCallbacks.isEmpty }, "the tap was answered after two 502s")
        #expect(h.fake.calls.filter { $0.method == "answerCallbackQuery" }.count == 3)
        await h.kill()
    }

    /// Hundreds of taps at once through a gate of 8: all answered, each once, never more than 8
    /// in flight (counted by a transport that holds each request a moment).
    @Test func manyTapsAreAllAnsweredThroughANarrowGate() async throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let counting = CountingTransport(CurlTransport(baseURL: fake.baseURL, token: "1:test"))
        defer { counting.inner.shutdown() }
        let taps = TapAnswers(api: BotAPI(transport: counting), metrics: nil, logger: Logger(label: "test"), limit: 8)
        // Taps the fake has delivered (it answers only those), as the bot would hear of them.
        let ids = (0..<300).map { i -> String in
            let id = "tap\(i)"
            fake.enqueue([
                "callback_query": [
                    "id": id, "data": "x", "message": ["message_id": 1, "chat": ["id": Int64(6_000 + i)]],
                ]
            ])
            return id
        }
        taps.answer(
            ids.enumerated().map { i, id in
                OutboxItem(
                    chatID: 6_000 + Int64(i), method: "answerCallbackQuery",
                    body: Data(#"{"callback_query_id":"\#(id)"}"#.utf8), priority: OutboxItem.tapPriority)
            })
        #expect(fake.wait(timeout: 30) { fake.unansweredCallbacks.isEmpty && taps.outstanding == 0 })
        #expect(fake.calls.filter { $0.method == "answerCallbackQuery" }.count == 300, "each answered once")
        #expect(counting.most.withLock { $0 } == 8, "at most the gate's 8 in flight, and the gate was full")
    }

    /// Under a burst, an answer whose tap Telegram would no longer take is not sent: it would only
    /// make the fresh ones wait (here one at a time, each held 300 ms, answers given 0.45 s).
    @Test func anAnswerTooOldToBeTakenIsNotSent() async throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let slow = CountingTransport(CurlTransport(baseURL: fake.baseURL, token: "1:test"), holding: .milliseconds(300))
        defer { slow.inner.shutdown() }
        let taps = TapAnswers(
            api: BotAPI(transport: slow), metrics: nil, logger: Logger(label: "test"), limit: 1,
            giveUpAfter: .milliseconds(450))
        for i in 0..<5 {
            fake.enqueue([
                "callback_query": [
                    "id": "old\(i)", "data": "x", "message": ["message_id": 1, "chat": ["id": Int64(7_000 + i)]],
                ]
            ])
        }
        taps.answer(
            (0..<5).map {
                OutboxItem(
                    chatID: Int64(7_000 + $0), method: "answerCallbackQuery",
                    body: Data(#"{"callback_query_id":"old\#($0)"}"#.utf8), priority: OutboxItem.tapPriority)
            })
        #expect(fake.wait(timeout: 5) { taps.outstanding == 0 })
        let answered = fake.calls.filter { $0.method == "answerCallbackQuery" }.count
        #expect(
            answered == 2, "the first two went out within the 0.45 s; the other three were past it (\(answered) sent)")
    }

    /// A transport that has shut down ends every answer, the waiting ones too.
    @Test func aShutDownTransportLeavesNoAnswerWaiting() async throws {
        let fake = try FakeBotAPI()
        defer { fake.stop() }
        let transport = CurlTransport(baseURL: fake.baseURL, token: "1:test")
        transport.shutdown()
        let taps = TapAnswers(api: BotAPI(transport: transport), metrics: nil, logger: Logger(label: "test"), limit: 4)
        taps.answer(
            (0..<50).map {
                OutboxItem(
                    chatID: Int64($0), method: "answerCallbackQuery",
                    body: Data(#"{"callback_query_id":"x\#($0)"}"#.utf8), priority: OutboxItem.tapPriority)
            })
        #expect(fake.wait(timeout: 5) { taps.outstanding == 0 })
        #expect(fake.calls.isEmpty)
    }
}

/// Passes requests on to a real transport, holding each a few ms, and keeps the most in flight at once.
final class CountingTransport: BotAPITransport, @unchecked Sendable {  // state behind Mutexes
    let inner: CurlTransport
    let inFlight = Locked(0)
    let most = Locked(0)
    let holding: DispatchTimeInterval
    init(_ inner: CurlTransport, holding: DispatchTimeInterval = .milliseconds(5)) {
        self.inner = inner
        self.holding = holding
    }

    nonisolated(nonsending) func post(_ method: String, _ body: RequestBody, timeout: TimeInterval) async throws
        -> HTTPResult
    {
        try await inner.post(method, body, timeout: timeout)
    }

    func post(
        _ method: String, _ body: RequestBody, timeout: TimeInterval,
        then: @escaping @Sendable (Result<HTTPResult, Error>) -> Void
    ) {
        let now = inFlight.withLock {
            $0 += 1
            return $0
        }
        most.withLock { $0 = max($0, now) }
        DispatchQueue.global().asyncAfter(deadline: .now() + holding) { [self] in
            inner.post(method, body, timeout: timeout) { [self] outcome in
                inFlight.withLock { $0 -= 1 }
                then(outcome)
            }
        }
    }
}
