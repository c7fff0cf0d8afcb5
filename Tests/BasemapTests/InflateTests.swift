import Basemap
import Foundation
import Testing

/// gzip/zlib inflation: round trips, a bound on the output, and clear errors.
struct InflateTests {
    /// A gzip member of 200,000 zero bytes in stored (uncompressed) deflate blocks, built by
    /// hand so the test needs no compressor.
    static let zerosGzip: [UInt8] = {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        let total = 200_000
        var left = total
        while left > 0 {
            let size = min(left, 65_535)
            left -= size
            out.append(left == 0 ? 1 : 0)
            out.append(contentsOf: [UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8((~size >> 8) & 0xFF)])
            out.append(contentsOf: [UInt8](repeating: 0, count: size))
        }
        // CRC-32 of 200,000 zeros and the length, little-endian.
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<total {
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((crc >> UInt32(shift)) & 0xFF)) }
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((UInt32(total) >> UInt32(shift)) & 0xFF)) }
        return out
    }()

    /// A gzip member inflates to its content.
    @Test func inflatesGzip() throws {
        #expect(Inflate.isGzip(Self.zerosGzip))
        let bytes = try Inflate.decompress(Self.zerosGzip)
        #expect(bytes.count == 200_000)
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    /// Output past the limit is an error, not an allocation.
    @Test func boundedOutput() {
        #expect {
            try Inflate.decompress(Self.zerosGzip, limit: 100_000)
        } throws: { error in
            (error as? BasemapError)?.message.contains("more than 100000 bytes") == true
        }
    }

    /// Truncated and corrupt streams are errors.
    @Test func truncatedAndCorrupt() {
        #expect(throws: BasemapError.self) { try Inflate.decompress(Array(Self.zerosGzip.prefix(5000))) }
        var corrupt = Self.zerosGzip
        corrupt[10] = 0x07 // an invalid block type
        #expect(throws: BasemapError.self) { try Inflate.decompress(corrupt) }
        #expect(throws: BasemapError.self) { try Inflate.decompress([]) }
    }

    /// The real gzip'd tiles inflate to valid vector tiles.
    @Test(.enabled(if: SharedFixtures.available, SharedFixtures.absent))
    func realTiles() throws {
        let bytes = try Inflate.decompress(try SharedFixtures.bytes("compressed/14-9384-9577.mvt.gz"))
        #expect(try VectorTile(decoding: bytes).layers.count > 5)
    }
}
