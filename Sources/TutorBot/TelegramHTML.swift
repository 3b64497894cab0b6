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
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") }) else {
            return text
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for c in text.unicodeScalars {
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
