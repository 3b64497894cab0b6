import Foundation
import JSONCoding

/// Reading one bank file's fields: every problem is collected (file, id, field), none stops the load.
struct Problems {
    var list: [BankProblem] = []
    mutating func add(_ file: String, _ id: String, _ field: String, _ message: String) {
        list.append(BankProblem(file: file, id: id, field: field, message: message))
    }
}

/// Reads typed fields off one JSON object, recording a problem for each missing or mistyped one.
struct Fields {
    let file: String
    let id: String
    let value: JSONValue

    func bad(_ field: String, _ message: String, _ p: inout Problems) { p.add(file, id, field, message) }

    func string(_ key: String, _ p: inout Problems) -> String? {
        guard let s = value[key]?.string, !isBlank(s) else {
            bad(key, value[key] == nil || value[key]?.isNull == true ? "missing" : "must be a non-empty string", &p)
            return nil
        }
        return s
    }

    func number(_ key: String, _ p: inout Problems) -> Double? {
        guard let n = value[key]?.double else {
            bad(key, "missing or not a number", &p)
            return nil
        }
        return n
    }

    func stringArray(_ key: String, _ p: inout Problems) -> [String]? {
        guard let a = value[key]?.array else {
            bad(key, "missing or not an array", &p)
            return nil
        }
        let strings = a.compactMap(\.string)
        guard strings.count == a.count else {
            bad(key, "must contain only strings", &p)
            return nil
        }
        return strings
    }
}

// Foundation's trimmingCharacters bridges through NSString on Linux and was a sixth of a bank load.
func isBlank(_ s: String) -> Bool { s.unicodeScalars.allSatisfy(\.properties.isWhitespace) }

func trimmed(_ s: String) -> Substring {
    let scalars = s.unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return Substring(scalars[first...last])
}
