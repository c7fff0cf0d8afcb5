import Caching
import SQLiteStore
import Testing

@Suite struct PageCacheTests {
    /// SQLite's page cache is sized from the process's cache budget, on the writer and on every
    /// reader alike (its share split over the nine connections), and never below 512 KiB, which
    /// keeps the upper levels of the indexes cached.
    @Test func sizedFromTheBudget() throws {
        let large = try SQLiteTripStore(path: temporaryDatabasePath(), cacheBudget: CacheBudget(megabytes: 1_024))
        let share = CacheBudget(megabytes: 1_024).databasePages / 9 / 1_024
        let (writer, reader) = try large.pageCacheKiB()
        #expect(writer == share && reader == share)
        #expect(share > 15_000)

        let none = try SQLiteTripStore(path: temporaryDatabasePath(), cacheBudget: CacheBudget(megabytes: 0))
        let floor = try none.pageCacheKiB()
        #expect(floor.writer == 512 && floor.reader == 512)
    }
}
