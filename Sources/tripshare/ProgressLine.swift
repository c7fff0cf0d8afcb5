import Foundation
import Synchronization

/// Progress for long jobs: a bar redrawn in place on a terminal, a line every 10% otherwise
/// (logs and CI stay readable).
final class ProgressLine: Sendable {
    private let label: String
    private let isTerminal = isatty(STDOUT_FILENO) != 0
    private let state = Mutex((lastPercent: -1, start: Date()))

    init(label: String) { self.label = label }

    func update(_ done: Int, of total: Int) {
        guard total > 0 else { return }
        let percent = done * 100 / total
        let line: String? = state.withLock { state in
            if isTerminal ? percent == state.lastPercent : percent / 10 == state.lastPercent / 10 && state.lastPercent >= 0 { return nil }
            state.lastPercent = percent
            let elapsed = Date().timeIntervalSince(state.start)
            let eta = done > 0 ? elapsed / Double(done) * Double(total - done) : 0
            let width = 30
            let filled = width * done / total
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            return String(format: "%@ [%@] %d/%d %3d%% eta %.0fs", label, bar, done, total, percent, eta)
        }
        guard let line else { return }
        if isTerminal {
            FileHandle.standardOutput.write(Data("\r\(line)".utf8))
        } else {
            print(line)
        }
    }

    /// Prints a line of its own (above the bar on a terminal).
    func note(_ text: String) {
        if isTerminal {
            FileHandle.standardOutput.write(Data("\r\u{1B}[2K\(text)\n".utf8))
            state.withLock { $0.lastPercent = -1 }
        } else {
            print(text)
        }
    }

    func finish() {
        if isTerminal { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
