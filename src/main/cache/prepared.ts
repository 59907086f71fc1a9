import type Database from 'better-sqlite3';

/** Statements prepared once per connection and text: preparing costs more than most reads. */
export function preparedStatements(db: Database.Database): (sql: string) => Database.Statement {
  const statements = new Map<string, Database.Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}
