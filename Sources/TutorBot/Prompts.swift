import Foundation
import Mustache
import TutorCore

public enum PromptsError: Error, CustomStringConvertible {
    case unreadable(file: String, reason: String)
    case missingTemplate(String)

    public var description: String {
        switch self {
        case .unreadable(let f, let r): return "prompts: cannot read \(f): \(r)"
        case .missingTemplate(let path):
            return "prompts: template \(path) is missing (the prompts folder is a locale's own, such as Prompts/en)"
        }
    }
}

/// Every learner-visible string, rendered from Prompts/<locale>/ by Mustache. Each template has
/// one typed entry point below taking its context struct; `PromptsTests` checks that every
/// variable a template uses exists in that struct and that the result fits Telegram's limits.
public struct Prompts: Sendable {
    /// Names of the message templates (files `<name>.mustache`); `disclaimer` is a partial.
    public static let templateNames = [
        "welcome", "welcome_back", "pick_state", "type_state", "state_card", "home", "question", "answered",
        "results", "review_empty", "pick_topic", "progress", "settings", "help", "about", "notice", "disclaimer",
        "pick_test", "locked_in", "misses", "test_unavailable", "nudge", "confirm_delete", "data_deleted",
        "broadcast", "admin_stats", "admin_reload", "admin_broadcast",
        "flashcard", "flashcards_done", "pick_sign_group", "sign_card", "badge", "level_up",
        "confirm_state", "confirm_switch", "ready_missing", "lesson_card", "lesson_done", "topic_lessons",
        "challenge_intro", "challenge_ready", "challenge_result", "challenge_played", "challenged_back", "friends",
        "daily_result",
        "confirm_unfriend", "league_status", "daily_intro", "daily_closed", "ask_answer", "ask_declined",
    ]

    let library: MustacheLibrary
    let strings: Strings
    let textTemplates: [String: MustacheTemplate]
    /// Messages whose text depends on nothing but their kind — every notice ("Hmm, I didn't catch
    /// that…"), help, about and the other screens without a context — rendered once at load by
    /// their templates. A notice went with every stray message: 3 in 10 of the bench's renders,
    /// each looking up 14 flags.
    let fixedNotices: [Notice: String]
    let fixedScreens: [String: String]
    static let fixedScreenNames = [
        "pick_state", "type_state", "test_unavailable", "confirm_delete", "pick_sign_group",
        "data_deleted", "review_empty", "pick_topic", "help", "about",
    ]

    struct Strings: Decodable, Sendable {
        var buttons: [String: String]
        var topics: [String: String]
        var modes: [String: String]
        var cheers: [String]
        var commands: [String: String]
        var admin: [String: String]?
        var signGroups: [String: String]?
        var badges: [String: [String]]?
        /// Time zone id → what a US teen calls it ("Central time (Chicago)"); a missing id shows its city.
        var timeZones: [String: String]?
    }

    public static func load(directory: String) throws -> Prompts {
        TelegramHTML.registerOnce
        var templates: [String: MustacheTemplate] = [:]
        for name in templateNames {
            let path = "\(directory)/\(name).mustache"
            guard var text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw PromptsError.missingTemplate(path)
            }
            // A file's last newline is not part of the message: a partial used mid-line
            // ("still to do: {{> ready_missing}}.") brought it along and left the full stop on a
            // line of its own. (A message is trimmed anyway; the partial used on a line of its
            // own, `disclaimer`, ends its template.)
            if text.hasSuffix("\n") { text.removeLast() }
            do {
                templates[name] = try MustacheTemplate(string: "{{% CONTENT_TYPE: \(TelegramHTML.name)}}" + text)
            } catch { throw PromptsError.unreadable(file: path, reason: "\(error)") }
        }
        let stringsPath = "\(directory)/strings.json"
        do {
            let strings = try JSONDecoder().decode(
                Strings.self, from: Data(contentsOf: URL(fileURLWithPath: stringsPath)))
            let library = MustacheLibrary(templates: templates)
            let texts = textTemplates(strings)
            let unrendered = Prompts(
                library: library, strings: strings, textTemplates: texts, fixedNotices: [:], fixedScreens: [:])
            return Prompts(
                library: library, strings: strings, textTemplates: texts,
                fixedNotices: Dictionary(
                    uniqueKeysWithValues: Notice.allCases.map { ($0, unrendered.notice(NoticeContext($0))) }),
                fixedScreens: Dictionary(
                    uniqueKeysWithValues: fixedScreenNames.map { ($0, unrendered.render($0, EmptyContext())) }))
        } catch {
            throw PromptsError.unreadable(file: stringsPath, reason: "\(error)")
        }
    }

    /// A screen without a context: rendered at load (see `fixedScreens`).
    func fixed(_ name: String) -> String {
        fixedScreens[name] ?? render(name, EmptyContext())
    }

    /// Renders a template with its context; trimmed, as Telegram trims anyway.
    public func render(_ name: String, _ context: Any) -> String {
        Prompts.trimmed(library.render(Prompts.tree(context), withTemplate: name) ?? "")
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)` without the trip through NSString (slow,
    /// and on every rendered line): the same set, Unicode's space separators, tab, the newlines U+000A-U+000D,
    /// U+0085, U+2028 and U+2029.
    static func trimmed(_ s: String) -> String {
        func isSpace(_ c: Unicode.Scalar) -> Bool {
            switch c.value {
            case 0x09...0x0D, 0x20, 0x85, 0x2028, 0x2029: return true
            case 0..<0x80: return false
            default: return c.properties.generalCategory == .spaceSeparator
            }
        }
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == scalars.startIndex && last == scalars.index(before: scalars.endIndex) { return s }
        return String(scalars[first...last])
    }

    /// The context as nested dictionaries. Mustache would otherwise reflect (Mirror) the struct
    /// again for every variable it looks up — most of the time of a reply went there; one
    /// reflection per render is enough. nil optionals are left out, so they read as false.
    static func tree(_ value: Any) -> Any {
        if let c = value as? TemplateFields { return c.fields }
        return reflected(value)
    }

    /// `tree` by reflection (the contexts that list no fields). `purely`: nested contexts are
    /// reflected too, never read from their field lists (the tests compare the two ways).
    static func reflected(_ value: Any, purely: Bool = false) -> Any {
        func nested(_ v: Any) -> Any { purely ? reflected(v, purely: true) : tree(v) }
        // Leaves first, without reflection: most values are strings, numbers and flags.
        switch value {
        case is String, is Int, is Bool, is Int64, is Double: return value
        case let list as [OptionContext] where !purely: return list.map(\.fields)
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .struct, .class:
            var d: [String: Any] = [:]
            for child in mirror.children {
                guard let label = child.label, let v = unwrap(child.value) else { continue }
                d[label] = nested(v)
            }
            return d
        case .collection:
            return mirror.children.compactMap { unwrap($0.value).map(nested) }
        case .optional:
            return unwrap(value).map(nested) ?? false
        default:
            return value
        }
    }

    static func unwrap(_ value: Any) -> Any? {
        switch value {
        case is String, is Int, is Bool, is Int64, is Double: return value
        default: break
        }
        let m = Mirror(reflecting: value)
        guard m.displayStyle == .optional else { return value }
        return m.children.first.map(\.value)
    }

    /// Plain text (button labels): no HTML escaping, since Telegram shows button text as is.
    func text(_ template: String, _ context: [String: String] = [:]) -> String {
        guard let t = textTemplates[template] ?? (try? MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + template))
        else { return template }
        return t.render(context)
    }

    /// The button and mode strings parsed once at load (they were parsed again for every label).
    static func textTemplates(_ strings: Strings) -> [String: MustacheTemplate] {
        var all: [String: MustacheTemplate] = [:]
        for template in Array(strings.buttons.values) + Array(strings.modes.values) {
            all[template] = try? MustacheTemplate(string: "{{% CONTENT_TYPE: TEXT}}" + template)
        }
        return all
    }
}
