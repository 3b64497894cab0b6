import Foundation
import Testing
@testable import TutorBot

/// The progress chart is a real PNG drawn by cairo, phone-sized, small enough to send.
@Suite struct ScoreChartTests {
    func points(_ n: Int) -> [ScoreChart.Point] {
        let start = Date(timeIntervalSince1970: 1_793_000_000)
        return (0..<n).map { ScoreChart.Point(date: start.addingTimeInterval(Double($0) * 86_400), percent: 40 + ($0 * 7) % 60) }
    }

    func size(_ png: Data) -> (Int, Int) {
        let b = [UInt8](png)
        let w = Int(b[16]) << 24 | Int(b[17]) << 16 | Int(b[18]) << 8 | Int(b[19])
        let h = Int(b[20]) << 24 | Int(b[21]) << 16 | Int(b[22]) << 8 | Int(b[23])
        return (w, h)
    }

    @Test(arguments: [1, 5, 50])
    func drawsAPNG(count: Int) throws {
        let png = try #require(ScoreChart.png(points: points(count), passPercent: 80, title: "Sam's practice tests · New York",
                                              timeZone: TimeZone(identifier: "America/New_York")!))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let (w, h) = size(png)
        #expect(w >= 480 && h >= 270 && w > h, "landscape, phone-sized: \(w)×\(h)")
        #expect(png.count < 200_000)
    }

    @Test func noPointsNoChart() {
        #expect(ScoreChart.png(points: [], passPercent: 80, title: "x", timeZone: .gmt) == nil)
    }
}
