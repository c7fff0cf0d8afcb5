import Testing
import TripStore

@testable import Fleet

/// The IDs event streams show (issue 29, item 6): per stream, revealing nothing of the log's
/// one sequence, and mapped back when a client resumes.
@Suite struct EventStreamIDsTests {
    static let key = (0..<32).map { UInt8($0 * 7 % 256) }
    static let trip = EventFilter.trip(provider: "p", tripId: "t1")

    /// SipHash-2-4 gives the reference implementation's outputs (key 00..0f; messages of 0
    /// and 8 bytes 00, 01, ...).
    @Test func sipHashMatchesTheReference() {
        let key = (UInt64(0x0706_0504_0302_0100), UInt64(0x0f0e_0d0c_0b0a_0908))
        #expect(SipHash.hash([], key: key) == 0x726f_db47_dd0e_0e31)
        #expect(SipHash.hash(Array(0..<8), key: key) == 0x93f5_f579_9a93_2462)
        #expect(SipHash.hash(0x0706_0504_0302_0100, key: key) == 0x93f5_f579_9a93_2462)
        #expect(SipHash.hash(Array(0..<15), key: key) == 0xa129_ca61_49be_45e5)
    }

    /// Every ID maps back to its event, and stays an integer below 2^52.
    @Test func idsMapBack() throws {
        let ids = EventStreamIDs(key: Self.key, stream: Self.trip)
        let logIDs: [Int64] = [1, 2, 3, 1_000, 123_456_789, (1 << 52) - 1]
        for logID in logIDs {
            let id = ids.id(of: logID)
            let number = try #require(UInt64(id))
            #expect(number < 1 << 52)
            #expect(ids.logID(from: id) == logID)
        }
    }

    /// Consecutive events of the log get unrelated IDs, unlike in another stream; the same key
    /// and stream number alike (another server on the database, a restart).
    @Test func idsDependOnTheStreamAndTheKey() {
        let ids = EventStreamIDs(key: Self.key, stream: Self.trip)
        let run = (1...100).map { ids.id(of: $0) }
        #expect(Set(run).count == 100)
        let ascending = zip(run, run.dropFirst()).filter { UInt64($0)! < UInt64($1)! }.count
        #expect((25...75).contains(ascending), "\(ascending) of 99 steps go up")
        let other = EventStreamIDs(key: Self.key, stream: .trip(provider: "p", tripId: "t2"))
        #expect(zip(run, (1...100).map { other.id(of: $0) }).allSatisfy { $0 != $1 })
        let otherKey = EventStreamIDs(key: Self.key.map { $0 ^ 1 }, stream: Self.trip)
        #expect(otherKey.id(of: 5) != ids.id(of: 5))
        #expect(EventStreamIDs(key: Self.key, stream: Self.trip).id(of: 5) == ids.id(of: 5))
    }

    /// "0" is the start; text that is not a number below 2^52 is no ID; another stream's ID
    /// stands for a log ID far beyond any real log.
    @Test func resumePoints() {
        let ids = EventStreamIDs(key: Self.key, stream: Self.trip)
        #expect(ids.logID(from: EventStreamIDs.start) == 0)
        #expect(ids.logID(from: "yesterday") == nil)
        #expect(ids.logID(from: "-5") == nil)
        #expect(ids.logID(from: String(UInt64(1) << 52)) == nil)
        let other = EventStreamIDs(key: Self.key, stream: .vehicle(provider: "p", vehicleId: "v1"))
        let foreign = (1...20).compactMap { ids.logID(from: other.id(of: $0)) }
        #expect(foreign.allSatisfy { $0 > 1_000_000 }, "\(foreign)")
    }
}
