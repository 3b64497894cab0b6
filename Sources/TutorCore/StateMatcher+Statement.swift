import Foundation

/// A message that only says which state the learner is in ("im in pennsylvania", "change my
/// state to florida", "wait no im in PA not new jersey"), typed anywhere but the picker: a
/// play-tester's "wait no im in pennsylvania not new jersey" got "didn't catch that", and "change
/// my state to pennsylvania" a road sign. A question about a state ("can you turn left on red in
/// missouri") holds other words and is answered for that state instead.
extension StateMatcher {
    /// The state the message asks to study for, or nil when it says more than that. A state named
    /// after "not" is the one being corrected; the first other one is the learner's.
    public static func statedState(_ typed: String, in states: [StateInfo]) -> StateInfo? {
        let words = typed.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map {
            $0.replacingOccurrences(of: "'", with: "")
        }
        guard !words.isEmpty, words.count <= 14 else { return nil }
        let names = states.map { (words: $0.name.lowercased().split(separator: " ").map(String.init), state: $0) }
            .sorted { $0.words.count > $1.words.count }
        var named: [(state: StateInfo, negated: Bool)] = []
        var i = 0
        while i < words.count {
            if let hit = names.first(where: { n in
                i + n.words.count <= words.count && Array(words[i..<(i + n.words.count)]) == n.words
            }) {
                named.append((hit.state, i > 0 && words[i - 1] == "not"))
                i += hit.words.count
                continue
            }
            let word = words[i]
            let afterPlace = i > 0 && ["in", "to", "from"].contains(words[i - 1])
            if let code = nicknames[word], let s = states.first(where: { $0.code == code }) {
                named.append((s, i > 0 && words[i - 1] == "not"))
            } else if word.count == 2, afterPlace || (words.count == 1 && !everydayWords.contains(word)),
                let s = states.first(where: { $0.code.lowercased() == word })
            {
                named.append((s, false))
            } else if !statementWords.contains(word) {
                return nil
            }
            i += 1
        }
        return named.first { !$0.negated }?.state
    }

    /// Words around a state's name in a message that only says which state it is: the picker's
    /// lead-ins (`leadIn`) and the words of a correction or a request to switch.
    static let statementWords: Set<String> = leadIn.union([
        "me", "wait", "no", "nah", "nope", "not", "actually", "sorry", "oops", "meant", "mean", "change", "changed",
        "switch", "set", "move", "moved", "moving", "to", "want", "wanna", "use", "make", "please", "pls", "plz",
        "can", "you", "u", "instead", "wrong", "thats", "that", "taking", "take", "test", "permit", "ill", "be",
        "going", "gonna", "for", "a", "hey", "hi", "lol", "bro", "nvm", "but", "really", "just", "now", "new",
        "other", "another", "here", "there", "at",
    ])
}
