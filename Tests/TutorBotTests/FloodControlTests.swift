import Drills
import FakeBotAPI
import Foundation
import TelegramAPI
import Testing
import TutorCore
import TutorStore

@testable import TutorBot

@Suite struct FloodControlTests {
    @Test func aLoneChats429HoldsOnlyThatChatButSeveralChatsMeanTheWholeBot() {
        var f = FloodControl()
        let t0 = ContinuousClock.now
        for i in 0..<80 { f.sent(at: t0 + .milliseconds(i * 25)) }  // 40 a second for 2 s
        #expect(f.rateLimited(chat: 1, retryAfter: 3, chatAtItsPace: true, at: t0 + .milliseconds(1_990)) == .chat)
        #expect(f.pausedUntil == nil && f.pace == nil)
        #expect(f.rateLimited(chat: 2, retryAfter: 3, chatAtItsPace: true, at: t0 + .milliseconds(2_000)) == .bot)
        #expect(f.pausedUntil == t0 + .milliseconds(2_000) + .seconds(3))
        let pace = f.pace
        #expect(pace != nil)
        #expect(
            pace.map { $0 < 40 && $0 >= 20 } == true,
            "70% of the ~40/s that was being sent: \(String(describing: pace))")
        // More 429s from requests already in flight do not lower it again.
        _ = f.rateLimited(chat: 3, retryAfter: 3, chatAtItsPace: true, at: t0 + .milliseconds(2_100))
        #expect(f.pace == pace)
        // Quiet: the pace creeps up, then is lifted after a minute without a 429.
        let raised = f.relax(at: t0 + .seconds(8))
        #expect(raised.changed && (raised.pace ?? 0) > (pace ?? 0))
        #expect(f.relax(at: t0 + .seconds(63)).pace == nil)
    }

    /// Issue #39: the first 429 of an overall wait went to a chat well within its own pace, was
    /// taken for that chat's, and 153 messages to other chats went out inside the wait.
    @Test func a429ForAChatWithinItsOwnPaceHoldsTheWholeBot() {
        var f = FloodControl()
        let t0 = ContinuousClock.now
        #expect(f.rateLimited(chat: 1, retryAfter: 2, chatAtItsPace: false, at: t0) == .bot)
        #expect(f.pausedUntil == t0 + .seconds(2))
    }
}
