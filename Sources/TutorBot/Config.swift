import Foundation
import TelegramAPI
import TutorCore
import TutorStore

/// Everything the process is configured with. Keys are the environment variable names.
public struct Config: Sendable {
    /// Never printed (see `BotToken`).
    public var token: BotToken
    public var apiBase: String
    public var databasePath: String
    public var banksDirectory: String
    public var promptsDirectory: String
    public var admins: Set<Int64>
    /// getUpdates' long-poll seconds (the HTTP timeout is 15 s longer).
    public var pollTimeout: Int
    /// Global outgoing messages per second (Telegram allows about 30).
    public var messagesPerSecond: Double
    /// PERMITREADY_FAKE_NOW: the clock starts at this instant and runs on in real time.
    public var fakeNow: Date?
    /// Deliver each batch's replies before polling again (the console chat: a scripted session
    /// then reads like a real one, each reply printed before the next line is taken).
    public var deliverBeforeNextPoll = false
    /// SQLite's `synchronous` for the writer: FULL (README "Delivery guarantees"); the bench compares NORMAL.
    public var sqliteSynchronous = TutorStore.synchronous
    /// Deliver only this chat's messages (a console on a database another console shares: each
    /// prints its own learner's messages; the other's stay queued for it).
    public var onlyChat: Int64?
    /// Messages per second within one chat (Telegram: about 1, with short bursts).
    public var perChatPerSecond: Double = 1
    /// How often to look for reminders that are due.
    public var nudgeCheckSeconds: TimeInterval = 30
    /// PERMITREADY_METRICS_FILE: Prometheus text written here (node_exporter's textfile collector).
    public var metricsFile: String?
    /// PERMITREADY_METRICS_EVERY: seconds between writes of the metrics file.
    public var metricsEverySeconds: TimeInterval = 15
    /// How often sent messages, old answers and old message ids are pruned (README "Data kept").
    public var pruneEverySeconds: TimeInterval = 3_600
    /// NOTIFY_SOCKET: where systemd listens for READY=1 and WATCHDOG=1 (unset outside systemd).
    public var notifySocket: String?
    /// How often the heartbeat `permitready health` reads is written (after a good poll).
    public var heartbeatEverySeconds: TimeInterval = 5
    /// After a batch that did not fill a getUpdates (100), wait this long before polling again, so
    /// that under load updates arrive in batches rather than one poll and one commit each. Against
    /// Telegram a poll's round trip is about this anyway; against a fake on loopback, polling at
    /// once ran thousands of one-update batches a second and starved the sending of replies.
    public var pollGatherSeconds: TimeInterval = 0.02

    public init(
        token: BotToken, apiBase: String = "https://api.telegram.org", databasePath: String = "permitready.sqlite",
        banksDirectory: String = "Banks", promptsDirectory: String = "Prompts/en", admins: Set<Int64> = [],
        pollTimeout: Int = 50, messagesPerSecond: Double = 25, fakeNow: Date? = nil
    ) {
        self.token = token
        self.apiBase = apiBase
        self.databasePath = databasePath
        self.banksDirectory = banksDirectory
        self.promptsDirectory = promptsDirectory
        self.admins = admins
        self.pollTimeout = pollTimeout
        self.messagesPerSecond = messagesPerSecond
        self.fakeNow = fakeNow
    }

    /// A token looks like "123456789:AA…" (digits, colon, 30+ url-safe characters).
    /// The settings from command-line values where given, else the environment (README's table),
    /// else the defaults: the one place both executables (`permitready`, `permitready-bench`) read them.
    public static func resolve(token: String, db: String?, banks: String?, prompts: String?, defaultDB: String)
        -> Config
    {
        let env = ProcessInfo.processInfo.environment
        var c = Config(token: BotToken(token))
        c.databasePath = db ?? env["PERMITREADY_DB"] ?? defaultDB
        c.banksDirectory = banks ?? env["PERMITREADY_BANKS"] ?? "Banks"
        c.promptsDirectory = prompts ?? env["PERMITREADY_PROMPTS"] ?? "Prompts/en"
        c.apiBase = env["TELEGRAM_API_BASE"] ?? c.apiBase
        c.admins = Config.parseAdmins(env["PERMITREADY_ADMINS"])
        if let r = env["PERMITREADY_RATE"].flatMap(Double.init) { c.messagesPerSecond = r }
        if let r = env["PERMITREADY_CHAT_RATE"].flatMap(Double.init), r > 0 { c.perChatPerSecond = r }
        if let p = env["PERMITREADY_POLL_TIMEOUT"].flatMap(Int.init) { c.pollTimeout = p }
        c.fakeNow = env["PERMITREADY_FAKE_NOW"].flatMap(Config.parseInstant)
        c.notifySocket = env["NOTIFY_SOCKET"]
        c.metricsFile = env["PERMITREADY_METRICS_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        if let s = env["PERMITREADY_METRICS_EVERY"].flatMap(Double.init), s >= 1 { c.metricsEverySeconds = s }
        return c
    }

    /// Why `apiBase` must not be used, if it must not: the token travels in every request's path,
    /// so anything but https is refused unless the server is on this machine (a local Bot API
    /// server, the tests' fake).
    public static func apiBaseProblem(_ base: String) -> String? {
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(),
            !host.isEmpty
        else {
            return "TELEGRAM_API_BASE is not a URL (expected https://host)"
        }
        if scheme == "https" { return nil }
        let loopback = host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        if scheme == "http" && loopback { return nil }
        return
            """
            TELEGRAM_API_BASE must start with https:// (the bot token is sent in every request); plain http is \
            allowed only to this machine (127.0.0.1, localhost, ::1), not to \(scheme)://\(host)
            """
    }

    public static func isWellFormedToken(_ t: String) -> Bool {
        t.range(of: #"^[0-9]{5,12}:[A-Za-z0-9_-]{30,}$"#, options: .regularExpression) != nil
    }

    public static func parseInstant(_ s: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: s) { return d }
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: s)
    }

    public static func parseAdmins(_ s: String?) -> Set<Int64> {
        Set((s ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Int64($0) })
    }
}

/// The one clock: real time, or real time shifted to start at PERMITREADY_FAKE_NOW.
public struct BotClock: Sendable {
    let offset: TimeInterval

    public init(fakeNow: Date? = nil) {
        offset = fakeNow.map { $0.timeIntervalSinceNow } ?? 0
    }

    public func now() -> Date { Date().addingTimeInterval(offset) }
}

/// Reads Banks/ from disk into `BankSources` (TutorCore does no I/O) and loads them.
public enum BankFiles {
    public static func read(_ directory: String) throws -> BankSources {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDir), isDir.boolValue else {
            throw BankFilesError.missingDirectory(directory)
        }
        var files: [String: Data] = [:]
        for name in BankLoader.files {
            if let d = fm.contents(atPath: "\(directory)/\(name)") { files[name] = d }
        }
        for folder in BankLoader.folders {
            for name in (try? fm.contentsOfDirectory(atPath: "\(directory)/\(folder)")) ?? []
            where name.hasSuffix(".json") {
                if let d = fm.contents(atPath: "\(directory)/\(folder)/\(name)") { files["\(folder)/\(name)"] = d }
            }
        }
        let pictures = Set(
            ((try? fm.contentsOfDirectory(atPath: "\(directory)/signs")) ?? []).filter { $0.hasSuffix(".png") })
        return BankSources(files: files, signPictures: pictures)
    }

    public static func load(_ directory: String) throws -> (banks: Banks?, problems: [BankProblem]) {
        BankLoader.load(try read(directory))
    }
}

public enum BankFilesError: Error, CustomStringConvertible {
    case missingDirectory(String)
    case invalid([BankProblem])

    public var description: String {
        switch self {
        case .missingDirectory(let d): return "banks directory \(d) does not exist"
        case .invalid(let p):
            return "the banks have \(p.count) problem(s):\n"
                + BankProblemReport.lines(p).map { "  \($0)" }.joined(separator: "\n")
        }
    }
}
