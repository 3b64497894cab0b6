import Foundation
import Testing
import TutorCore

@testable import TutorStore

/// "Delete my data" runs inside a batch's write transaction, while every other learner waits.
@Suite struct EraseTests {
    /// Before: `outbox` (sent rows) and `broadcast_delivery` were scanned whole for every erase
    /// (with 100,000 learners, every message and delivery ever kept).
    @Test func everyTableIsErasedThroughAnIndexNotAScan() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("erase-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try TutorStore(path: path)
        for table in TutorStore.tablesWithChatRows {
            let plan = try store.rows("EXPLAIN QUERY PLAN DELETE FROM \(table) WHERE chat_id = 42").compactMap {
                $0["detail"]
            }
            #expect(
                plan.contains { $0.contains("USING") && ($0.contains("INDEX") || $0.contains("KEY")) },
                "\(table): \(plan)")
            #expect(!plan.contains { $0 == "SCAN \(table)" }, "\(table): \(plan)")
        }
    }
}
