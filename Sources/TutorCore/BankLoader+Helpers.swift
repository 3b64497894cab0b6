import Foundation
import JSONCoding

/// Reading a file's bytes as JSON and its version header, with the problem said plainly.
extension BankLoader {

    static func parse(_ file: String, _ data: Data?, _ p: inout Problems) -> JSONValue? {
        guard let data else {
            p.add(file, "-", "file", "missing")
            return nil
        }
        do {
            let v = try JSONValue.parse(data)
            guard v.object != nil else {
                p.add(file, "-", "file", "top level must be a JSON object")
                return nil
            }
            return v
        } catch {
            p.add(file, "-", "file", "not valid JSON (\(describe(error)))")
            return nil
        }
    }

    static func describe(_ error: Error) -> String {
        if case DecodingError.dataCorrupted(let ctx) = error {
            return (ctx.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                ?? ctx.debugDescription
        }
        return "\(error)"
    }

    static func fileInfo(_ file: String, _ root: JSONValue, _ p: inout Problems) -> BankFileInfo {
        let version = root["version"]?.string
        if version == nil { p.add(file, "-", "version", "missing") }
        let updated = root["lastUpdated"]?.string
        if updated == nil { p.add(file, "-", "lastUpdated", "missing") }
        var changelog: [ChangelogEntry] = []
        if let list = root["changelog"]?.array {
            for (i, e) in list.enumerated() {
                guard let v = e["version"]?.string, let d = e["date"]?.string, let n = e["notes"]?.string else {
                    p.add(file, "-", "changelog[\(i)]", "needs version, date and notes")
                    continue
                }
                changelog.append(ChangelogEntry(version: v, date: d, notes: n))
            }
        } else {
            p.add(file, "-", "changelog", "missing")
        }
        return BankFileInfo(file: file, version: version ?? "", lastUpdated: updated ?? "", changelog: changelog)
    }
}
