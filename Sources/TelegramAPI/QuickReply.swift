import Foundation

/// The two replies nearly every send gets, read without a JSONDecoder (a full decode for every
/// send is costly under load): `{"ok":true,"result":true}` (a tap answered) and
/// `{"ok":true,"result":{…,"message_id":N,…}}` (a message sent or edited). Anything else — an
/// error, another shape, a value it doesn't expect — reads as nil, and the full decode takes it.
enum QuickReply {
    enum Result: Equatable { case done, message(id: Int64) }

    static func read(_ body: Data) -> Result? {
        body.withUnsafeBytes { raw -> Result? in
            var s = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            return s.reply()
        }
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        mutating func reply() -> Result? {
            var ok = false
            var result: Result?
            guard eat(UInt8(ascii: "{")) else { return nil }
            repeat {
                guard let key = key() else { return nil }
                switch key {
                case "ok":
                    guard literal("true") else { return nil }
                    ok = true
                case "result":
                    if literal("true") {
                        result = .done
                    } else if let id = messageID() {
                        result = .message(id: id)
                    } else {
                        return nil
                    }
                default:
                    guard skipValue() else { return nil }
                }
            } while eat(UInt8(ascii: ","))
            guard eat(UInt8(ascii: "}")), ok else { return nil }
            return result
        }

        /// An object whose top level has an integer "message_id" (other members skipped).
        mutating func messageID() -> Int64? {
            guard eat(UInt8(ascii: "{")) else { return nil }
            var id: Int64?
            repeat {
                guard let key = key() else { return nil }
                if key == "message_id" {
                    guard let n = integer() else { return nil }
                    id = n
                } else if !skipValue() {
                    return nil
                }
            } while eat(UInt8(ascii: ","))
            return eat(UInt8(ascii: "}")) ? id : nil
        }

        /// `"name":` (a key with an escape is not one this reader needs: nil).
        mutating func key() -> String? {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let start = i + 1
            var j = start
            while j < bytes.count, bytes[j] != UInt8(ascii: "\"") {
                if bytes[j] == UInt8(ascii: "\\") { return nil }
                j += 1
            }
            guard j < bytes.count else { return nil }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<j]), as: UTF8.self)
            i = j + 1
            return eat(UInt8(ascii: ":")) ? name : nil
        }

        mutating func integer() -> Int64? {
            skipSpace()
            var n: Int64 = 0
            var digits = 0
            let negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
            if negative { i += 1 }
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9"), digits < 18 {
                n = n * 10 + Int64(bytes[i] - UInt8(ascii: "0"))
                i += 1
                digits += 1
            }
            // A fraction, an exponent or more digits than fit: not an id this reader trusts.
            guard digits > 0, i < bytes.count, !"0123456789.eE".utf8.contains(bytes[i]) else { return nil }
            return negative ? -n : n
        }

        mutating func literal(_ word: String) -> Bool {
            skipSpace()
            let start = i
            for c in word.utf8 {
                guard i < bytes.count, bytes[i] == c else {
                    i = start
                    return false
                }
                i += 1
            }
            return true
        }

        /// Skips one value of any kind (strings with their escapes, nested objects and arrays).
        mutating func skipValue() -> Bool {
            skipSpace()
            guard i < bytes.count else { return false }
            var depth = 0
            repeat {
                guard i < bytes.count else { return false }
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    i += 1
                    while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                        i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    guard i < bytes.count else { return false }
                    i += 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    i += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return true }  // the end of the enclosing object
                    depth -= 1
                    i += 1
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                    i += 1
                default:
                    i += 1
                }
            } while depth > 0 || (i < bytes.count && bytes[i] != UInt8(ascii: ",") && bytes[i] != UInt8(ascii: "}"))
            return true
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
                i += 1
            }
        }

        mutating func eat(_ c: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }
    }
}

/// Any sending method's result: a Message (its id is kept) or something else (`true`).
struct SentMessageID: Decodable {
    var messageID: Int64?
    init(from decoder: Decoder) throws {
        messageID =
            (try? decoder.container(keyedBy: K.self)).flatMap {
                try? $0.decodeIfPresent(Int64.self, forKey: .messageID)
            } ?? nil
    }
    enum K: String, CodingKey { case messageID = "message_id" }
}
