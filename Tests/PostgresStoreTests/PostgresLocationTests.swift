import PostgresStore
import Testing

/// `--database` URLs: what they name, what they refuse, and how they are shown.
@Suite struct PostgresLocationTests {
    /// TCP and Unix-socket forms, with a password, a port and a schema or without.
    @Test func forms() throws {
        let tcp = try PostgresLocation(url: "postgres://app:s3cret@db.example:6432/fleet?schema=city_a")
        #expect(tcp.endpoint == .tcp(host: "db.example", port: 6432))
        #expect(tcp.username == "app" && tcp.password == "s3cret" && tcp.database == "fleet" && tcp.schema == "city_a")
        #expect(tcp.description == "postgres://app@db.example:6432/fleet?schema=city_a")
        // PostgreSQL's own programs get neither the password nor the schema (libpq refuses it).
        #expect(tcp.toolURL == "postgres://app@db.example:6432/fleet")

        let plain = try PostgresLocation(url: "postgresql://app@localhost/fleet")
        #expect(plain.endpoint == .tcp(host: "localhost", port: 5432) && plain.password == nil && plain.schema == "public")

        let socket = try PostgresLocation(url: "postgres://app@/fleet?host=/run/postgresql")
        #expect(socket.endpoint == .unixSocket(directory: "/run/postgresql", port: 5432))
        #expect(socket.description == "postgres://app@/fleet?host=/run/postgresql")
        #expect(socket.inSchema("city_b").toolURL == "postgres://app@/fleet?host=/run/postgresql")
        let socketPort = try PostgresLocation(url: "postgres://app@:55619/fleet?host=/tmp/pg/socket")
        #expect(socketPort.endpoint == .unixSocket(directory: "/tmp/pg/socket", port: 55619))
    }

    /// What is refused says why, and never shows the password.
    @Test(arguments: [
        ("mysql://app@db/fleet", "must start with postgres://"),
        ("postgres://db.example/fleet", "names no user"),
        ("postgres://app:hunter2@db.example", "names no database"),
        ("postgres://app@db/fleet?schema=Fleet-A", "plain identifier"),
        ("postgres://app@db/fleet?sslmode=require", "TLS is not supported"),
        ("postgres://app@db/fleet?pool=9", "unknown parameter 'pool'"),
        ("postgres://app:hunter2@/fleet", "names no host"),
    ])
    func refusals(url: String, reason: String) {
        #expect {
            try PostgresLocation(url: url)
        } throws: { error in
            let text = "\(error)"
            return text.contains(reason) && !text.contains("hunter2")
        }
    }
}
