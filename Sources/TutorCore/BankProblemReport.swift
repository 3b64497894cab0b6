import Foundation

/// Problems as an operator reads them: root causes first (a file that could not be read at all),
/// then what follows from them counted in one line per cause (a state file with one stray comma
/// leaves every lesson card that teaches its questions pointing at "missing" ones), then the rest.
public enum BankProblemReport {
    public static func lines(_ problems: [BankProblem]) -> [String] {
        let broken = problems.filter { $0.field == "file" }
        var followers: [String: Int] = [:]
        var rest: [BankProblem] = []
        for p in problems where p.field != "file" {
            if let cause = broken.first(where: { follows(p, from: $0) }) {
                followers[cause.file, default: 0] += 1
            } else {
                rest.append(p)
            }
        }
        var out: [String] = []
        for cause in broken {
            out.append(cause.description)
            if let n = followers[cause.file] {
                out.append(
                    "  … and \(n) problem\(n == 1 ? "" : "s") that follow from it (lesson cards that teach questions "
                        + "of \(cause.file), which could not be read)"
                )
            }
        }
        return out + rest.map(\.description)
    }

    /// A card pointing at a question that lives in a file that could not be read.
    static func follows(_ p: BankProblem, from cause: BankProblem) -> Bool {
        guard p.message.hasPrefix("no question ") else { return false }
        let id = p.message.dropFirst("no question ".count)
        let name = (cause.file as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "").lowercased()
        if cause.file.hasPrefix("states/") { return id.hasPrefix("\(name)-") }
        if cause.file.hasPrefix("universal/") { return id.hasPrefix("u-") }
        return false
    }
}
