import ArgumentParser
import Foundation
import TutorBot
import TutorCore
import TutorStore

/// The operator's commands: backup, restore, health, pruning (deploy/README.md walks through them).
extension PermitReady {
    struct Backup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the database while the bot runs (SQLite's online backup: one consistent snapshot).",
            discussion:
                """
                Writes FILE.partial and renames it when complete and checked, so a half-written backup never \
                looks whole.
                """
        )
        @OptionGroup var paths: Paths
        @Option(name: .long, help: "Backup file to write (must not exist).") var to: String

        func run() throws {
            let path = paths.config(token: "", defaultDB: "permitready.sqlite").databasePath
            guard FileManager.default.fileExists(atPath: path) else { throw fail("no database at \(path)") }
            do {
                // Read-only: a backup never writes to (or migrates) the live database.
                let store = try TutorStore(path: path, access: .readOnly)
                let t0 = Date()
                let counts = try store.backup(to: to)
                let size = (try? FileManager.default.attributesOfItem(atPath: to)[.size] as? NSNumber)?.int64Value ?? 0
                print(
                    """
                    backed up \(path) to \(to): \(counts); \
                    \(ByteCountFormatter.string(fromByteCount: size, countStyle: .file)) in \
                    \(String(format: "%.2f", Date().timeIntervalSince(t0))) s
                    """
                )
                // The node_exporter textfile idiom: each job writes its own file beside the bot's.
                if let metrics = ProcessInfo.processInfo.environment["PERMITREADY_METRICS_FILE"], !metrics.isEmpty {
                    let file = ((metrics as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
                        "permitready_backup.prom")
                    let text = """
                        # HELP permitready_last_backup_timestamp_seconds Unix time the last successful backup finished.
                        # TYPE permitready_last_backup_timestamp_seconds gauge
                        permitready_last_backup_timestamp_seconds \
                        \(String(format: "%.0f", Date().timeIntervalSince1970))
                        # HELP permitready_last_backup_bytes Size of the last successful backup.
                        # TYPE permitready_last_backup_bytes gauge
                        permitready_last_backup_bytes \(size)

                        """
                    do { try BotMetrics.writeAtomically(text, to: file) } catch {
                        FileHandle.standardError.write(
                            Data(
                                """
                                permitready: backed up, but could not write \(file): \
                                \((error as NSError).localizedDescription)\n
                                """
                                .utf8))
                    }
                }
            } catch { throw fail("\(error)") }
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a backup in place of the database (stop the bot first).",
            discussion: """
                Refuses while another PermitReady process holds the database (its lock file, DB.lock). \
                Checks the backup (SQLite quick_check, PermitReady's tables, a schema this binary knows) \
                before touching anything; the replaced database, healthy or damaged, is kept as \
                DB.before-restore-<UTC time> (never overwritten).
                """)
        @OptionGroup var paths: Paths
        @Option(name: .long, help: "Backup file to restore.") var from: String

        func run() throws {
            let path = paths.config(token: "", defaultDB: "permitready.sqlite").databasePath
            do {
                let t0 = Date()
                let lock = try DatabaseLock(database: path)
                let checked = try TutorStore.inspectBackup(from)
                let (counts, kept) = try TutorStore.restore(from: from, to: path, checked: checked)
                if let kept { print("kept the replaced database as \(kept)") }
                let store = try TutorStore(path: path)  // migrates an older backup
                try store.setFlag(TutorStore.heartbeatKey, nil)
                print(
                    """
                    restored \(from) to \(path): \(counts) in \
                    \(String(format: "%.2f", Date().timeIntervalSince(t0))) s; migrations: \
                    \(try store.appliedMigrations().last ?? "-")
                    """
                )
                withExtendedLifetime(lock) {}
            } catch let e as ExitCode { throw e } catch { throw fail("\(error)") }
        }
    }

    struct Health: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Exit 0 if the running bot polled Telegram recently (its heartbeat in the database), 1 if not.",
            discussion:
                """
                For any supervisor or monitor. The bot writes the heartbeat after each good poll (every few \
                seconds when busy, every long poll — 50 s — when idle).
                """
        )
        @OptionGroup var paths: Paths
        @Option(
            help: "Seconds without a good poll before the bot counts as unhealthy (env PERMITREADY_HEALTH_MAX_AGE).")
        var maxAge: Double?

        func run() throws {
            let path = paths.config(token: "", defaultDB: "permitready.sqlite").databasePath
            let limit =
                maxAge ?? ProcessInfo.processInfo.environment["PERMITREADY_HEALTH_MAX_AGE"].flatMap(Double.init) ?? 120
            guard FileManager.default.fileExists(atPath: path) else { throw fail("unhealthy: no database at \(path)") }
            do {
                // Read-only: a monitoring user that may only read the file can run it.
                let store = try TutorStore(path: path, access: .readOnly)
                let problem = try store.flag(TutorStore.healthProblemKey).map { "; the bot says: \($0)" } ?? ""
                guard let beat = try store.heartbeat() else {
                    throw fail("unhealthy: the bot has never polled with \(path)\(problem)")
                }
                let age = Date().timeIntervalSince(beat)
                guard age <= limit else {
                    throw fail("unhealthy: last good poll \(Int(age)) s ago (limit \(Int(limit)) s)\(problem)")
                }
                let pending = try store.operatorGauges(now: Date())
                print(
                    """
                    healthy: last good poll \(Int(age)) s ago; \(pending.outboxPending) message(s) waiting, \
                    oldest \(Int(pending.oldestPendingSeconds)) s
                    """
                )
            } catch let e as ExitCode { throw e } catch { throw fail("unhealthy: \(error)") }
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                """
                Delete sent messages, answers older than 14 days and old message ids now (the bot also does it \
                hourly).
                """
        )
        @OptionGroup var paths: Paths

        func run() throws {
            let path = paths.config(token: "", defaultDB: "permitready.sqlite").databasePath
            do {
                let r = try TutorStore(path: path, access: .current).prune(now: Date())
                print(r.summary)
            } catch { throw fail("\(error)") }
        }
    }
}
