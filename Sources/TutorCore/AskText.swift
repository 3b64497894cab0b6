import Foundation

/// How text becomes search terms, the same way for the bank's cards and a teen's question:
/// lowercase ASCII words, apostrophes dropped ("what's" → "whats"), a light suffix stemmer
/// ("stopping", "stopped", "stops" → "stop"), stop words out. The full-text index is fed these
/// terms (not the raw text), so the index, the typo fixer and the judge all see one vocabulary.
public enum AskText {
    /// Words of the text in order, lowercased, with digits kept ("0.08", "4"). Read byte by byte
    /// (ASCII, the common case); other letters are folded to ASCII ("é" → "e") or split words.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        let bytes = Array(text.utf8)
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        func isLower(_ b: UInt8) -> Bool { b >= 97 && b <= 122 }
        func flush() {
            if !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
        }
        var i = 0
        while i < bytes.count {
            var b = bytes[i]
            if b >= 65 && b <= 90 { b += 32 }  // A-Z → a-z
            if isLower(b) || isDigit(b) {
                current.append(b)
            } else if b == 39 {
                // "don't" → "dont"
            } else if b == 46, let last = current.last, isDigit(last), i + 1 < bytes.count, isDigit(bytes[i + 1]) {
                current.append(b)  // "0.08"
            } else if b == 45, current == [117] || current == [107], i + 1 < bytes.count, isLower(bytes[i + 1] | 0x20) {
                // "U-turn", "K-turn" are one word (a bare "u" is "you").
            } else if b >= 0x80 {
                // A multi-byte character: its scalar, folded if it is a letter with an accent; ’ is an apostrophe.
                let length = b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : 2)
                let scalar = String(decoding: bytes[i..<min(bytes.count, i + length)], as: UTF8.self)
                if scalar != "\u{2019}" {
                    let folded = scalar.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).utf8
                    if folded.allSatisfy({ isLower($0) || isDigit($0) }) { current += folded } else { flush() }
                }
                i += length
                continue
            } else {
                flush()
            }
            i += 1
        }
        flush()
        return words
    }

    /// A light English stemmer: enough to meet "stopping" with "stop" and "lights" with "light",
    /// applied to both sides, so its mistakes ("ned" from "need") cancel out.
    public static func stem(_ word: String) -> String {
        var w = Array(word.utf8)
        guard w.count > 3, w.allSatisfy({ $0 >= 97 && $0 <= 122 }) else { return word }
        func ends(_ suffix: String) -> Bool {
            w.count >= suffix.utf8.count && w.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
        }
        if ends("ies"), w.count > 4 {
            w.removeLast(3)
            w.append(121)
        } else if ends("sses") {
            w.removeLast(2)
        } else if ends("s"), !ends("ss"), !ends("us"), !ends("is") {
            w.removeLast()
        }
        if ends("ing"), w.count > 5 {
            w.removeLast(3)
            undouble(&w)
        } else if ends("ed"), w.count > 4, !ends("eed") {
            w.removeLast(2)
            undouble(&w)
        }
        if ends("e"), w.count > 4 { w.removeLast() }  // "merge"/"merging" → "merg"
        return String(decoding: w, as: UTF8.self)
    }

    /// "stopp" → "stop", "signall" → "signal": a doubled last consonant left by -ing/-ed.
    private static func undouble(_ w: inout [UInt8]) {
        guard w.count > 3, w[w.count - 1] == w[w.count - 2], !"aeiousz".utf8.contains(w[w.count - 1]) else { return }
        w.removeLast()
    }

    /// The terms the index holds for a document's text (stemmed, stop words out).
    public static func terms(_ text: String) -> [String] {
        rewritingPhrases(words(text)).compactMap { stopWords.contains($0) ? nil : stem($0) }
    }

    /// The same terms as `terms(_:)` for many texts, each distinct word's stop-word test and stem
    /// worked out once: a bank load reads about 300,000 words, of which some 12,000 differ.
    public struct TermCache {
        private enum Entry {
            case stopWord
            case term(String)
            /// May begin a phrase of `phrases`: the words after it decide.
            case phraseStart
        }
        private var entries: [String: Entry] = [:]

        public init() {}

        public mutating func terms(_ text: String) -> [String] {
            let words = AskText.words(text)
            var out: [String] = []
            out.reserveCapacity(words.count)
            var i = 0
            while i < words.count {
                switch entry(words[i]) {
                case .stopWord:
                    i += 1
                case .term(let term):
                    out.append(term)
                    i += 1
                case .phraseStart:
                    // Rare: rewrite the phrase (or keep the word) the slow way, from this word on.
                    let (rewritten, used) = AskText.rewritingPhrase(at: i, in: words)
                    out += rewritten.compactMap { AskText.stopWords.contains($0) ? nil : AskText.stem($0) }
                    i += used
                }
            }
            return out
        }

        /// Each word of 5+ letters met, with its term ("driving" → "driv"): what a typo of a word
        /// is corrected to when its stem is no term ("drivng" is one edit from "driving").
        public var spelledWords: [(word: String, term: String)] {
            entries.compactMap { word, entry in
                guard word.utf8.count >= 5, case .term(let term) = entry else { return nil }
                return (word, term)
            }
        }

        private mutating func entry(_ word: String) -> Entry {
            if let known = entries[word] { return known }
            let entry: Entry =
                AskText.phrasesByFirstWord[word] != nil
                ? .phraseStart : AskText.stopWords.contains(word) ? .stopWord : .term(AskText.stem(word))
            entries[word] = entry
            return entry
        }
    }

    /// `phrases` applied: "4 way stop" → "four way stop", "8 sided" → "octagon".
    public static func rewritingPhrases(_ words: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < words.count {
            let (rewritten, used) = rewritingPhrase(at: i, in: words)
            out += rewritten
            i += used
        }
        return out
    }

    /// The phrase of `phrases` that starts at `words[i]`, rewritten, and how many words it took;
    /// else the word itself.
    static func rewritingPhrase(at i: Int, in words: [String]) -> (words: [String], used: Int) {
        for phrase in phrasesByFirstWord[words[i]] ?? []
        where i + phrase.from.count <= words.count && words[i..<(i + phrase.from.count)].elementsEqual(phrase.from) {
            return (phrase.to, phrase.from.count)
        }
        return ([words[i]], 1)
    }

    /// Words that carry no meaning for finding a card: grammar, chat filler, and the words every
    /// question has ("what does it mean", "do i have to").
    public static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "but", "so", "if", "then", "than", "of", "to", "in", "on", "at", "by", "for",
        "from", "with", "w", "about", "as", "into", "onto", "up", "out", "off", "over", "its", "it", "this", "that",
        "these", "those", "there", "here", "is", "are", "was", "were", "be", "been", "being", "am", "im", "i", "me",
        "my", "mine", "you", "your", "youre", "yours", "u", "ur", "r", "we", "our", "they", "them", "their", "he",
        "she", "him", "her", "his", "hers", "what", "whats", "which", "who", "whom", "whose", "how", "hows", "why",
        "when", "where", "wheres", "do", "does", "did", "doing", "done", "dont", "doesnt", "didnt", "can", "cant",
        "could", "couldnt", "should", "shouldnt", "would", "wouldnt", "will", "wont", "shall", "may", "might", "must",
        "have", "has", "had", "having", "get", "gets", "got", "getting", "go", "goes", "going", "gonna", "wanna",
        "gotta", "just", "like", "really", "very", "pls", "plz", "please", "lol", "lmao", "omg", "idk", "bro", "dude",
        "hey", "hi", "hello", "yo", "ok", "okay", "um", "uh", "hmm", "thanks", "thx", "ty", "mean", "means",
        "meaning", "meant", "tell", "know", "knows", "anyone", "someone", "somebody", "something", "thing", "things",
        "stuff", "kind", "sort", "also", "too", "all", "any", "some", "much", "many", "more", "most", "one", "ones",
        "such", "ever", "even", "still", "yet", "again", "want", "need", "needs", "supposed", "allowed", "legal",
        "illegal", "fine", "bot", "tutor", "quick", "wait", "yeah", "yes", "no", "not", "cuz", "bc", "because",
        "isnt", "arent", "aint", "hafta", "lemme", "let", "say", "says", "said", "actually", "totally", "literally",
        "basically", "real", "someones", "theres", "while", "always", "every", "ill", "ive", "id", "youll", "youd",
        "kinda", "sorta", "guy", "guys", "yall", "ppl", "people", "person", "happen", "happens", "happened", "whos",
        "wat", "wut", "tho", "rn", "nah", "ya", "yea", "hes", "shes", "thats", "seriously", "anything", "everything",
        "nothing", "insane", "crazy", "haha", "legit", "question",
    ]

    /// How teens write it → how the handbook does: whole-word phrases rewritten in a question
    /// (and in the cards, so both sides meet), longest first.
    static let phrasePairs: [(String, String)] = [
        ("4 way", "four way"), ("8 sided", "octagon"), ("eight sided", "octagon"), ("3 sided", "triangle"),
        ("three sided", "triangle"), ("5 sided", "pentagon"), ("five sided", "pentagon"),
        ("turn signal", "signal"), ("train tracks", "railroad crossing"), ("train track", "railroad crossing"),
        ("rail road", "railroad"), ("fire truck", "fire emergency vehicle"), ("cell phone", "phone"),
        ("seat belt", "seatbelt"), ("seat belts", "seatbelt"), ("road rage", "aggressive"),
        ("under the influence", "impaired"), ("cone zone", "work zone"), ("construction zone", "work zone"),
        ("learners permit", "permit"), ("learner permit", "permit"), ("how old", "age"), ("time limit", "timed"),
        ("pass mark", "pass"), ("passing score", "pass"), ("blood alcohol", "bac"), ("stop light", "traffic light"),
        ("k turn", "three point turn"), ("3 point", "three point"), ("a u turn", "a uturn"), ("u turns", "uturn"),
        ("manual car", "gear"), ("manual transmission", "gear"), ("stick shift", "gear"),
        ("by myself", "alone"), ("on my own", "alone"), ("be home by", "curfew"), ("glasses", "vision"),
        ("buckle up", "seatbelt"), ("blow into", "breath test"), ("at the wheel", "driving"),
        ("behind the wheel", "driving"), ("google maps", "gps"), ("the fine", "penalty"), ("a fine", "penalty"),
        ("how late", "curfew"), ("ride with me", "passenger"), ("in the car with me", "passenger"),
        ("how many people", "passenger"), ("how many ppl", "passenger"),
        ("near a school", "school zone"), ("near school", "school zone"), ("by a school", "school zone"),
        ("around a school", "school zone"),
        // Something broke: the handbook says it "fails".
        ("nothing happens", "fails"), ("doesnt work", "fails"), ("dont work", "fails"), ("not working", "fails"),
        ("stopped working", "fails"), ("18 wheeler", "truck"), ("big rig", "truck"), ("rear ended", "crash"),
    ]
    public static let phrases: [(from: [String], to: [String])] = phrasePairs.map { pair in
        (from: pair.0.split(separator: " ").map(String.init), to: pair.1.split(separator: " ").map(String.init))
    }.sorted { $0.from.count > $1.from.count }

    static let phrasesByFirstWord = Dictionary(grouping: phrases, by: { $0.from[0] })

    /// Single words as teens write them → the handbook's words, any of which counts as the word.
    public static let synonyms: [String: [String]] = [
        "cops": ["police"], "cop": ["police"], "police": ["officer"], "officer": ["police"],
        // Many states' permit is a "learner's license" or "instruction permit" in their handbooks.
        "permit": ["learner"],
        "drunk": ["alcohol", "impaired"], "buzzed": ["alcohol", "impaired"], "drinking": ["alcohol"],
        "beer": ["alcohol"], "booze": ["alcohol"], "liquor": ["alcohol"], "weed": ["marijuana"],
        "txt": ["text"], "txting": ["texting"], "snap": ["phone"], "cellphone": ["phone"], "iphone": ["phone"],
        "bike": ["bicycle", "bicyclist"], "bikes": ["bicycle", "bicyclist"], "biker": ["bicyclist", "motorcyclist"],
        "cyclist": ["bicyclist"], "motorbike": ["motorcycle"], "ped": ["pedestrian"], "peds": ["pedestrian"],
        "walker": ["pedestrian"], "walkers": ["pedestrian"], "hwy": ["highway", "freeway"], "highway": ["freeway"],
        "freeway": ["highway"], "interstate": ["freeway", "highway"], "expressway": ["freeway"],
        "wreck": ["crash", "collision"], "accident": ["crash", "collision"], "crash": ["collision", "accident"],
        "collision": ["crash", "accident"], "rr": ["railroad"], "train": ["railroad"], "tracks": ["railroad"],
        "ambulance": ["emergency"], "siren": ["emergency"], "amber": ["yellow"], "blinking": ["flashing"],
        "stoplight": ["traffic", "signal"], "blinker": ["signal"], "blinkers": ["signal"], "merg": ["merge"],
        "speeding": ["speed"], "tailgating": ["following"], "tailgate": ["following"], "brights": ["high", "beam"],
        "uturn": ["turnaround"], "licence": ["license"], "dmv": ["test"], "exam": ["test"], "quiz": ["test"],
        "old": ["age"], "friends": ["passenger"], "friend": ["passenger"], "buddies": ["passenger"],
        "curfew": ["night"], "midnight": ["night"], "handbook": ["manual"], "manual": ["handbook"],
        "book": ["handbook", "manual"], "score": ["pass"], "percent": ["pass"], "timed": ["minute", "time"],
        "hrs": ["hour"], "parts": ["section"], "mom": ["parent", "supervised"], "dad": ["parent", "supervised"],
        "parents": ["parent", "supervised"],
        "parent": ["supervised"], "ppl": ["people"],
        // "can i drive alone with my permit": who must ride along (a play-test got the permit-age question).
        "alone": ["supervisor", "supervised"],
        "10pm": ["night"], "11pm": ["night"], "12am": ["night", "midnight"], "1am": ["night"], "call": ["phone"],
        "gas": ["accelerator"], "nyc": ["new", "york", "city"],
        "1": ["one"], "2": ["two"], "3": ["three"], "4": ["four"], "5": ["five"], "6": ["six"], "7": ["seven"],
        "8": ["eight"], "10": ["ten"], "thru": ["through"], "car": ["vehicle"], "cars": ["vehicle"],
        "kid": ["child"], "kids": ["child"], "toddler": ["child"], "baby": ["child", "infant"], "shotgun": ["front"],
        "yr": ["year"], "yrs": ["year"], "airpods": ["headphone", "earphone"], "earbuds": ["headphone", "earphone"],
        "blizzard": ["snow"], "sprinkle": ["rain"], "drizzle": ["rain"], "drizzling": ["rain"], "pouring": ["rain"],
        "shots": ["alcohol"], "tipsy": ["alcohol"], "wasted": ["alcohol"], "semi": ["truck"], "honk": ["horn"],
        "honked": ["horn"], "honking": ["horn"], "rearview": ["mirror"], "flashers": ["hazard"],
        "breathalyzer": ["breath"], "spotify": ["music"], "maps": ["gps", "navigation"], "buckle": ["seatbelt"],
        "wine": ["alcohol"], "vodka": ["alcohol"], "tequila": ["alcohol"], "whiskey": ["alcohol"],
        "seltzer": ["alcohol"], "far": ["feet", "distance"], "b4": ["before"], "fast": ["speed", "mph"],
        "ems": ["emergency"], "paramedics": ["emergency"], "gushing": ["bleeding"],
    ]

    /// The slang word of `synonyms` that `word` misspells by one edit ("breathalizer",
    /// "earbudds"), for words of 6+ letters: shorter ones are too near other words.
    static func misspeltSynonym(_ word: String) -> String? {
        let x = Array(word.utf8)
        guard x.count >= 6 else { return nil }
        return longSynonymKeys.first { key in
            abs(key.bytes.count - x.count) <= 1 && AskCorpus.withinOneEdit(x, key.bytes)
        }?.key
    }
    static let longSynonymKeys: [(key: String, bytes: [UInt8])] = synonyms.keys.sorted()
        .filter { $0.utf8.count >= 6 }.map { ($0, Array($0.utf8)) }

    /// The subjects a lesson's title lists ("Schools, work zones, guide signs") that one card is
    /// about: those most of whose words (`terms`) `cardTerms` holds. nil when the title stands whole:
    /// it names one subject, or the card names none of them ("headlights" under "lights"), or all.
    static func subjects(of title: String, heldBy cardTerms: Set<String>, terms: (String) -> [String]) -> [String]? {
        let subjects = title.replacingOccurrences(of: " and ", with: ", ").components(separatedBy: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard subjects.count > 1 else { return nil }
        // One subject put two ways, not two subjects: "Levels 2 and 3" (a card was headed "3"),
        // "Provisional and full license" (one was headed "Provisional").
        if subjects.contains(where: { $0.allSatisfy(\.isNumber) }) { return nil }
        let sharedHead =
            subjects.count == 2 && !title.contains(",") && !subjects[0].contains(" ") && subjects[1].contains(" ")
        if sharedHead { return nil }
        let kept = subjects.filter { subject in
            let words = terms(subject)
            return !words.isEmpty && words.filter(cardTerms.contains).count * 2 > words.count
        }
        return kept.isEmpty || kept.count == subjects.count ? nil : kept
    }

    /// Feelings: off-topic on their own ("im so nervous"), but not beside a question about the test.
    public static let feelingWords: Set<String> = [
        "nervous", "worried", "anxious", "sad", "lonely", "stupid", "dumb", "bored",
    ]

    /// Words of `offTopicWords` that a road question holds too ("driving in bad weather", "music
    /// while driving", "drive my friends to the mall", "i work till midnight at a pizza place"):
    /// they put a question outside the permit test only when it holds no clear road word.
    public static let everydayOffTopicWords: Set<String> = [
        "weather", "music", "song", "songs", "mall", "pizza", "game", "games", "date", "buy", "job", "jobs",
        "college", "sound", "battery", "app", "apps", "settings", "update", "hungry", "bored",
        "sad", "lonely", "nervous", "worried", "anxious", "dumb", "stupid", "feelings", "boyfriend", "girlfriend",
        "story", "final", "finals", "favorite", "favourite", "annoying", "cheap", "cheaper", "likes", "love",
        // The test is given in Spanish in many states: "can i take the permit test in spanish".
        "spanish",
    ]

    /// Words that put a question outside the permit test whatever else it says ("the speed of
    /// light", "right of way in a relationship"): the judge declines a question holding one.
    public static let offTopicWords: Set<String> = [
        "homework", "math", "algebra", "geometry", "essay", "joke", "jokes", "funny", "riddle", "capital", "france",
        "president", "relationship", "girlfriend", "boyfriend", "crush", "dating", "date", "prom", "likes",
        "procrastinating", "procrastinate", "recipe", "cook", "pizza", "song", "songs", "music", "movie", "movies",
        "netflix", "game", "games", "minecraft", "fortnite", "roblox", "football", "basketball", "soccer", "weather",
        "forecast", "horoscope", "zodiac", "bitcoin", "stock", "job", "jobs", "hire", "resume", "college", "sat",
        "poem", "story", "dinosaur", "planet", "universe", "sound", "physics", "chemistry", "biology", "history",
        "buy", "cheapest", "insurance", "loan", "lease", "dealership", "mall", "shopping", "human", "ai",
        "chatgpt", "alive", "feelings", "love", "marry", "sing", "dance", "translate", "french",
        "einstein", "celebrity", "taylor", "swift", "youtube", "tiktok", "instagram", "meme", "memes", "birthday",
        "hungry", "bored", "sad", "dumb", "stupid", "robot", "barking", "bark", "cheat", "cheating", "nervous",
        "worried", "lonely", "anxious", "diet", "workout", "gym", "pokemon",
        // Money and shopping: buying a car, what it costs.
        "price", "prices", "cheap", "cheaper", "dollars", "budget", "afford", "sell", "selling", "10k",
        "5k", "20k", "financing", "mpg",
        // Phones and computers as such (a phone *while driving* is on topic: those words are not here).
        "mode", "app", "apps", "download", "wifi", "pdf", "file", "files", "laptop", "computer", "password", "email",
        "charger", "battery", "update", "settings",
        // Life outside the car: meals, family rows, feelings about studying.
        "taller", "annoying",
        // School and games.
        "chem", "final", "finals", "league", "legends", "xbox", "playstation", "ps5",
        "nintendo", "valorant", "gta", "favorite", "favourite",
    ]
}
