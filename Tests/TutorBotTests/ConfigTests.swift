import Foundation
import TelegramAPI
import Testing

@testable import TutorBot

@Suite struct ConfigTests {
    /// The token is a type that never prints: a log line or an error that interpolates the config
    /// (by mistake) shows a placeholder, not the secret.
    @Test func theTokenNeverPrints() {
        let secret = "1234567:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-secret"
        let config = Config.resolve(token: secret, db: nil, banks: nil, prompts: nil, defaultDB: "x.sqlite")
        for text in [
            "\(config.token)", String(describing: config.token), String(reflecting: config.token), "\(config)",
            String(reflecting: config),
        ] {
            #expect(!text.contains("secret") && !text.contains("AAAAAAAA"), "\(text)")
        }
        #expect("\(config.token)" == "<bot token>")
    }
}
