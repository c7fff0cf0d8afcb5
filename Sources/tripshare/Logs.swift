import Logging

enum Logs {
    /// Sets up swift-log once for the process in the chosen format.
    static func bootstrap(_ format: LogFormat, level: Logger.Level = .info) {
        LoggingSystem.bootstrap { label in
            var handler = StandardErrorLogHandler(label: label, format: format)
            handler.logLevel = level
            return handler
        }
    }
}
