// The event IDs a stream shows its client. The log numbers its events in one sequence for the
// whole server (every provider's writes), so showing those numbers would tell a rider how
// busy other providers are: the gap between two of its events is everyone's traffic. Each
// stream instead shows its events' log IDs through a permutation of the numbers below 2^52
// keyed by a secret of the store and by the stream (the trip or vehicle it follows): the IDs
// of one stream say nothing about the log, and the same event has unrelated IDs in two
// streams. The stream maps an ID back to the log's when a client resumes with it
// (Last-Event-ID); an ID of another stream maps to a number almost surely far beyond the log's
// end, and is refused. 52 bits keep every ID an integer JavaScript and JSON readers hold
// exactly, and are 4.5 quadrillion events.
//
// The permutation is a four-round Feistel network on two 26-bit halves whose round function is
// SipHash-2-4 (a keyed hash built for short inputs); about 0.1 µs an ID.

import TripStore

/// How one event stream numbers its events for its client (the `id:` of Server-Sent Events).
package struct EventStreamIDs: Sendable {
    private let k0: UInt64
    private let k1: UInt64

    /// The IDs of the stream `filter` selects, under the store's secret `key` (at least 16 bytes).
    package init(key: [UInt8], stream filter: EventFilter) {
        let master = (Self.word(key, at: 0), Self.word(key, at: 8))
        let name = Array(Self.name(of: filter).utf8)
        k0 = SipHash.hash(name + [0], key: master)
        k1 = SipHash.hash(name + [1], key: master)
    }

    /// The resume point that means "from the start of the log".
    package static let start = "0"

    /// The stream's ID of the log's event `logID` (which is below 2^52).
    package func id(of logID: Int64) -> String {
        String(permute(UInt64(bitPattern: logID) & Self.mask))
    }

    /// The log ID an ID of this stream stands for: 0 for ``start``; nil when `text` is not a
    /// number below 2^52. An ID from another stream (or made up) maps to some number, almost
    /// surely far beyond the log's end: callers compare with it.
    package func logID(from text: String) -> Int64? {
        if text == Self.start { return 0 }
        guard let number = UInt64(text), number <= Self.mask else { return nil }
        return Int64(unpermute(number))
    }

    /// Bits of a half, and of an ID (two halves).
    private static let halfBits: UInt64 = 26
    private static let halfMask: UInt64 = 1 << halfBits - 1
    private static let mask: UInt64 = 1 << (2 * halfBits) - 1

    private func permute(_ value: UInt64) -> UInt64 {
        var left = value >> Self.halfBits
        var right = value & Self.halfMask
        for round in 0..<Self.rounds {
            (left, right) = (right, left ^ mix(round, right))
        }
        return left << Self.halfBits | right
    }

    private func unpermute(_ value: UInt64) -> UInt64 {
        var left = value >> Self.halfBits
        var right = value & Self.halfMask
        for round in (0..<Self.rounds).reversed() {
            (left, right) = (right ^ mix(round, left), left)
        }
        return left << Self.halfBits | right
    }

    private static let rounds = 4

    private func mix(_ round: Int, _ half: UInt64) -> UInt64 {
        SipHash.hash(UInt64(round) << 32 | half, key: (k0, k1)) & Self.halfMask
    }

    private static func name(of filter: EventFilter) -> String {
        switch filter {
        case .all: "all"
        case .trip(let provider, let tripId): "trip\u{0}\(provider)\u{0}\(tripId)"
        case .vehicle(let provider, let vehicleId): "vehicle\u{0}\(provider)\u{0}\(vehicleId)"
        }
    }

    /// Eight bytes of `key` from `offset`, little-endian (missing bytes are zero).
    private static func word(_ key: [UInt8], at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        for index in 0..<8 where offset + index < key.count {
            word |= UInt64(key[offset + index]) << (8 * UInt64(index))
        }
        return word
    }
}

/// SipHash-2-4 (Aumasson and Bernstein, 2012) with a 128-bit key.
enum SipHash {
    /// The hash of one 64-bit word (as its 8 little-endian bytes).
    static func hash(_ word: UInt64, key: (UInt64, UInt64)) -> UInt64 {
        var state = State(key: key)
        state.compress(word)
        return state.finish(lastWord: 8 << 56)
    }

    /// The hash of `bytes`.
    static func hash(_ bytes: [UInt8], key: (UInt64, UInt64)) -> UInt64 {
        var state = State(key: key)
        let whole = bytes.count / 8 * 8
        var offset = 0
        while offset < whole {
            var word: UInt64 = 0
            for index in 0..<8 { word |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
            state.compress(word)
            offset += 8
        }
        var last = UInt64(bytes.count & 0xff) << 56
        for index in 0..<(bytes.count - whole) { last |= UInt64(bytes[whole + index]) << (8 * UInt64(index)) }
        return state.finish(lastWord: last)
    }

    private struct State {
        var v0: UInt64, v1: UInt64, v2: UInt64, v3: UInt64

        init(key: (UInt64, UInt64)) {
            v0 = key.0 ^ 0x736f_6d65_7073_6575
            v1 = key.1 ^ 0x646f_7261_6e64_6f6d
            v2 = key.0 ^ 0x6c79_6765_6e65_7261
            v3 = key.1 ^ 0x7465_6462_7974_6573
        }

        mutating func round() {
            v0 &+= v1
            v1 = v1.rotatedLeft(13) ^ v0
            v0 = v0.rotatedLeft(32)
            v2 &+= v3
            v3 = v3.rotatedLeft(16) ^ v2
            v0 &+= v3
            v3 = v3.rotatedLeft(21) ^ v0
            v2 &+= v1
            v1 = v1.rotatedLeft(17) ^ v2
            v2 = v2.rotatedLeft(32)
        }

        mutating func compress(_ word: UInt64) {
            v3 ^= word
            round()
            round()
            v0 ^= word
        }

        mutating func finish(lastWord: UInt64) -> UInt64 {
            compress(lastWord)
            v2 ^= 0xff
            for _ in 0..<4 { round() }
            return v0 ^ v1 ^ v2 ^ v3
        }
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
