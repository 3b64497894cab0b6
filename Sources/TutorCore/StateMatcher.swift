import Foundation

/// Finds the state a learner typed: a code ("ny"), a name ("new york"), or a name with a typo
/// ("Pensylvania"), forgiving of case, spaces and punctuation.
public enum StateMatcher {
    public static func match(_ typed: String, in states: [StateInfo]) -> StateInfo? {
        if let state = matchName(typed, in: states) { return state }
        // "im in washington state", "i live in ohio", "new york state": the name inside the sentence.
        let said = spokenName(typed)
        return said.isEmpty || said == typed.lowercased() ? nil : matchName(said, in: states)
    }

    /// The words of a sentence that name the state: lead-ins ("im in", "i live in", "from") and
    /// "state" around the name dropped.
    static func spokenName(_ typed: String) -> String {
        var words = typed.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map {
            $0.replacingOccurrences(of: "'", with: "")
        }
        while let first = words.first, leadIn.contains(first) { words.removeFirst() }
        while let last = words.last, trailing.contains(last) { words.removeLast() }
        return words.joined(separator: " ")
    }

    static let leadIn: Set<String> = [
        "i", "im", "am", "we", "were", "live", "living", "in", "from", "the", "state", "of", "my", "is", "its", "it",
        "currently", "rn", "um", "uh", "so", "well", "oh", "ok", "okay",
    ]
    static let trailing: Set<String> = ["state", "pls", "please", "thanks", "thx", "lol", "rn"]

    static func matchName(_ typed: String, in states: [StateInfo]) -> StateInfo? {
        let key = normalize(typed)
        guard !key.isEmpty, key.count <= 40 else { return nil }
        if districtOfColumbia.contains(key), let dc = states.first(where: { $0.code == "DC" }) { return dc }
        if let code = nicknames[key], let s = states.first(where: { $0.code == code }) { return s }
        if key.count == 2, let s = states.first(where: { $0.code.lowercased() == key }) { return s }
        if let s = states.first(where: { normalize($0.name) == key }) { return s }
        if key.count >= 4,
            let s = states.first(where: {
                normalize($0.name).hasPrefix(key) && key.count * 2 >= normalize($0.name).count
            })
        {
            return s
        }
        // Typos: the closest name within a distance that grows with length, and only if it is unambiguous.
        let allowed = key.count <= 5 ? 1 : (key.count <= 9 ? 2 : 3)
        let scored = states.map { ($0, editDistance(key, normalize($0.name))) }.filter { $0.1 <= allowed }.sorted {
            $0.1 < $1.1
        }
        guard let best = scored.first else { return nil }
        if scored.count > 1 && scored[1].1 == best.1 { return nil }
        return best.0
    }

    /// What teens call some states ("cali" was "I couldn't find that state").
    static let nicknames: [String: String] = [
        "cali": "CA", "socal": "CA", "norcal": "CA", "jersey": "NJ", "nyc": "NY", "mass": "MA", "vegas": "NV",
        "philly": "PA", "penn": "PA", "penna": "PA", "tex": "TX",
    ]

    /// Every usual way to write DC ("washington dc" must not read as Washington state).
    static let districtOfColumbia: Set<String> = [
        "dc", "washingtondc", "districtofcolumbia", "washdc", "washingtondistrictofcolumbia", "thedistrict",
    ]

    /// Everyday words that are also state codes or close to a state's name: "ok" is not a request for Oklahoma.
    static let everydayWords: Set<String> = [
        "ok", "hi", "in", "me", "oh", "or", "de", "la", "pa", "ma", "al", "co", "id", "ga",
        "ms", "mo", "ne", "nd", "sc", "wa", "va", "yes", "no", "okay", "main", "texts",
        "hey", "hello", "thanks", "thx", "ty", "lol", "idk",
    ]

    /// Whether a match should be confirmed before it is taken: a two-letter code, an everyday
    /// word, or a short guess at a name. A state's full name (or a long, clear typo of it) is taken at once.
    public static func needsConfirmation(_ typed: String, for state: StateInfo) -> Bool {
        let key = normalize(spokenName(typed))
        if key == normalize(state.name) || (state.code == "DC" && key.count > 2) || nicknames[key] != nil {
            return false
        }
        return key.count <= 2 || everydayWords.contains(key) || key.count <= 5
    }

    /// Typed as the state's full name (for taking it without a question, even on a first message).
    public static func isFullName(_ typed: String, of state: StateInfo) -> Bool {
        normalize(typed) == normalize(state.name) || normalize(spokenName(typed)) == normalize(state.name)
            || (state.code == "DC" && normalize(typed).count > 2 && districtOfColumbia.contains(normalize(typed)))
    }

    static func normalize(_ s: String) -> String {
        String(
            s.lowercased().unicodeScalars.filter { CharacterSet.lowercaseLetters.contains($0) && $0.isASCII }.map(
                Character.init))
    }

    /// Damerau-style (adjacent transposition counts as one) Levenshtein distance.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
