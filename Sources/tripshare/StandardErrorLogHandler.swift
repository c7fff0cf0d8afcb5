import Foundation
import Logging
import TripModel

/// Writes log lines to standard error in the chosen `--log-format`:
/// - text (the default): `2026-11-22T02:00:00Z info tripshare: message key=value`;
/// - json, for log shippers: one object per line, `{"time", "level", "label", "message", ...metadata}`.
///
/// swift-log's `StreamLogHandler` formats its metadata every time a key is set; the HTTP
/// server sets a request id on every request's logger, so that formatting showed in
/// profiles of `GET trip` although nothing was logged. Here metadata is formatted only
/// when a line is written.
struct StandardErrorLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new })
        let time = Timestamp(Date()).rfc3339
        switch format {
        case .text:
            let fields = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            FileHandle.standardError.write(Data("\(time) \(event.level) \(label): \(event.message)\(fields)\n".utf8))
        case .json:
            var fields: [String: String] = [
                "time": time,
                "level": event.level.rawValue,
                "label": label,
                "message": event.message.description,
            ]
            for (key, value) in merged { fields[key] = value.description }
            var line = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
            line.append(0x0A)
            FileHandle.standardError.write(line)
        }
    }
}
