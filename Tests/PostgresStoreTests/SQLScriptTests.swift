import Testing

@testable import PostgresStore

/// Migration files are split into statements (the extended protocol runs one at a time).
@Suite struct SQLScriptTests {
    /// Semicolons end statements, except inside quotes, identifiers, dollar-quoted bodies and
    /// comments; comments and empty statements are dropped.
    @Test func splitsStatements() {
        let script = """
            -- a comment; not a statement
            CREATE TABLE a (x text DEFAULT ';');
            INSERT INTO "odd;name" VALUES ('it''s; fine');;
            CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql;
            SELECT 2 -- trailing; comment
            """
        #expect(
            SQLScript.statements(script) == [
                "CREATE TABLE a (x text DEFAULT ';')",
                #"INSERT INTO "odd;name" VALUES ('it''s; fine')"#,
                "CREATE FUNCTION f() RETURNS int AS $body$ SELECT 1; $body$ LANGUAGE sql",
                "SELECT 2",
            ])
    }

    /// Every shipped migration splits into statements that each start with a keyword.
    @Test func shippedMigrationsSplit() throws {
        for file in try PostgresMigrations.files() {
            let statements = SQLScript.statements(file.sql)
            #expect(!statements.isEmpty, "\(file.name)")
            for statement in statements {
                #expect(statement.first?.isUppercase == true, "\(file.name): \(statement.prefix(40))")
            }
        }
    }
}
