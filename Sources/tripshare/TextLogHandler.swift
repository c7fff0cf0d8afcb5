import Foundation
import Logging

/// Writes readable log lines to standard error (`--log-format text`, the default):
/// `2026-11-22T02:00:00Z info tripshare: message key=value`.
///
/// swift-log's `StreamLogHandler` formats its metadata every time a key is set; the HTTP
/// server sets a request id on every request's logger, so that formatting showed in
/// profiles of `GET trip` although nothing was logged. Here metadata is formatted only
/// when a line is written.
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let time = Date().formatted(.iso8601)
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new })
        let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        FileHandle.standardError.write(Data("\(time) \(event.level) \(label): \(event.message)\(fields)\n".utf8))
    }
}
