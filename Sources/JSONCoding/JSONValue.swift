import Foundation

/// A parsed JSON document, kept loose so the bank validator can report every bad field at
/// once (a Codable decode stops at the first type mismatch and loses the question id).
public enum JSONValue: Equatable, Sendable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }
    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
    public var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }
    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
    public var isNull: Bool { self == .null }
    /// An integer only if the number has no fractional part.
    public var int: Int? {
        if case .number(let n) = self, n.rounded() == n, abs(n) < 1e15 { return Int(n) }
        return nil
    }
    public var double: Double? {
        if case .number(let n) = self { return n }
        return nil
    }
}

/// A bank file that is not valid JSON: what was expected, and where (line and column).
public struct JSONParseError: Error, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    public var description: String { "\(message) at line \(line), column \(column)" }
}

extension JSONValue {
    /// Parses a JSON document. Hand-written because decoding this loose enum through
    /// `JSONDecoder` tries every type in turn and was a third of a bank load.
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            parser.skipSpace()
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.at == parser.bytes.count else { throw parser.error("unexpected text after the document") }
            return value
        }
    }
}

struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ message: String) -> JSONParseError {
        var line = 1
        var column = 1
        for b in bytes[0..<min(at, bytes.count)] {
            if b == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return JSONParseError(message: message, line: line, column: column)
    }

    mutating func skipSpace() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
            at += 1
        }
    }

    mutating func expect(_ literal: String, _ value: JSONValue) throws -> JSONValue {
        for b in literal.utf8 {
            guard at < bytes.count, bytes[at] == b else { throw error("invalid literal") }
            at += 1
        }
        return value
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 64 else { throw error("nested too deeply") }
        guard at < bytes.count else { throw error("unexpected end of file") }
        switch bytes[at] {
        case UInt8(ascii: "{"):
            at += 1
            var object: [String: JSONValue] = [:]
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                at += 1
                return .object(object)
            }
            while true {
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                let key = try string()
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
                at += 1
                skipSpace()
                object[key] = try value(depth: depth + 1)
                skipSpace()
                guard at < bytes.count else { throw error("unexpected end of file in an object") }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                if bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return .object(object)
                }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            at += 1
            var array: [JSONValue] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                at += 1
                return .array(array)
            }
            while true {
                skipSpace()
                array.append(try value(depth: depth + 1))
                skipSpace()
                guard at < bytes.count else { throw error("unexpected end of file in an array") }
                if bytes[at] == UInt8(ascii: ",") {
                    at += 1
                    continue
                }
                if bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return .array(array)
                }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        default: return try number()
        }
    }

    mutating func number() throws -> JSONValue {
        let start = at
        while at < bytes.count, case let b = bytes[at],
            (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
        { at += 1 }
        guard at > start,
            let n = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self))
        else {
            throw error("unexpected character")
        }
        return .number(n)
    }

    mutating func string() throws -> String {
        at += 1  // the opening quote
        let start = at
        // Fast path: no escapes.
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\") {
            guard bytes[at] >= 0x20 else { throw error("control character in a string") }
            at += 1
        }
        guard at < bytes.count else { throw error("unterminated string") }
        if bytes[at] == UInt8(ascii: "\"") {
            at += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at - 1]), as: UTF8.self)
        }
        var out = Array(bytes[start..<at])
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "\"") {
                at += 1
                return String(decoding: out, as: UTF8.self)
            }
            guard b >= 0x20 else { throw error("control character in a string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                at += 1
                continue
            }
            at += 1
            guard at < bytes.count else { break }
            let e = bytes[at]
            at += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                    else { throw error("lone surrogate") }
                    at += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("lone surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw error("invalid escape")
            }
        }
        throw error("unterminated string")
    }

    mutating func hex4() throws -> UInt32 {
        guard at + 4 <= bytes.count else { throw error("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw error("invalid \\u escape")
            }
            v = v << 4 | d
            at += 1
        }
        return v
    }
}
