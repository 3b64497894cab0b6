import Foundation
import Testing

@testable import TutorBot

/// The progress chart is a real PNG drawn by cairo: 960×540 points at 2x, small enough to send.
@Suite struct ScoreChartTests {
    static let timeZone = TimeZone(identifier: "America/Chicago")!

    static func points(_ count: Int) -> [ScoreChart.Point] {
        let start = Date(timeIntervalSince1970: 1_730_000_000)
        return (0..<count).map {
            ScoreChart.Point(date: start.addingTimeInterval(Double($0) * 43_200), percent: 40 + $0 % 61)
        }
    }

    /// Reads a big-endian UInt32 from the PNG header.
    static func uint32(_ data: Data, at offset: Int) -> UInt32 {
        data.dropFirst(offset).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    @Test(arguments: [1, 5, 50]) func rendersAPNG(count: Int) throws {
        let png = try #require(
            ScoreChart.png(
                points: Self.points(count), passPercent: 80, title: "Sam's practice tests · New York",
                timeZone: Self.timeZone))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(String(decoding: png.dropFirst(12).prefix(4), as: UTF8.self) == "IHDR")
        #expect(Self.uint32(png, at: 16) == 1920)
        #expect(Self.uint32(png, at: 20) == 1080)
        #expect(png.count < 200_000)
    }

    @Test func noPointsNoPicture() {
        #expect(
            ScoreChart.png(points: [], passPercent: 80, title: "Your practice tests", timeZone: Self.timeZone) == nil)
    }
}
