import Foundation
import Mustache
import TutorCore

/// Escaping for Telegram's HTML parse mode: only `<`, `>` and `&` need it in text (quotes only
/// inside attributes, which our templates never fill), and most text has none of them, so it is
/// returned untouched after one pass over its bytes. (Mustache's own HTML escaping rebuilt every
/// string character by character: a tenth of an update's cost.)
struct TelegramHTML: MustacheContentType {
    static let name = "TELEGRAM_HTML"
    static let registerOnce: Void = { MustacheContentTypes.register(TelegramHTML(), named: name) }()

    func escapeText(_ text: String) -> String {
        // Scanned as one contiguous UTF-8 buffer: `String.UTF8View`'s iterator cost more than
        // the scan itself, on every variable of every message.
        var contiguous = text
        let escaped = contiguous.withUTF8 { utf8 -> String? in
            guard
                utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") })
            else {
                return nil
            }
            var out: [UInt8] = []
            out.reserveCapacity(utf8.count + 16)
            for b in utf8 {
                switch b {
                case UInt8(ascii: "<"): out += "&lt;".utf8
                case UInt8(ascii: ">"): out += "&gt;".utf8
                case UInt8(ascii: "&"): out += "&amp;".utf8
                default: out.append(b)
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
        return escaped ?? text
    }
}
