package io.squall.api.ha;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses a deposed leader's writes in the database itself: every table of the schema gets a
 * statement trigger that, inside the writing transaction, locks the lease row for share and
 * raises {@link #SQLSTATE} unless the lease is still at the writer's term (the session setting
 * {@code squall.term}, which {@link #sessionSql} gives every connection of the leader's pool). The
 * share lock makes a takeover (which updates the row) wait for writes in flight, and every write
 * after it see the new term. Covering every table, not one commit path, means no write the
 * controller makes (group commits, launch intents, checkpoints, ...) escapes the check.
 *
 * <p>Connections without {@code squall.term} (an operator's psql, a migration) are not checked.
 */
public final class Fencing {
  /** What the trigger raises: a write from a controller that no longer holds the lease. */
  public static final String SQLSTATE = "SQ001"; // also in FUNCTION
  private static final String FUNCTION = """
      CREATE OR REPLACE FUNCTION squall_fence() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        mine TEXT := current_setting('squall.term', true);
        lease_term BIGINT;
      BEGIN
        IF mine IS NULL OR mine = '' THEN
          RETURN NULL;
        END IF;
        SELECT term INTO lease_term FROM controller_lease WHERE id = 1 FOR SHARE;
        IF lease_term IS DISTINCT FROM mine::BIGINT THEN
          RAISE EXCEPTION 'squall: write refused: this controller leads at term %, but the lease is at term %', mine, lease_term
            USING ERRCODE = 'SQ001';
        END IF;
        RETURN NULL;
      END $$""";

  private Fencing() {}

  /**
   * Puts the trigger on every table of the current schema but the lease's own and Flyway's;
   * idempotent, so each new leader covers tables a newer migration added.
   *
   * @return the tables fenced
   */
  public static List<String> install(Connection c) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Statement s = c.createStatement()) {
      s.execute(FUNCTION);
      try (var r = s.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
          + " AND tablename NOT IN ('controller_lease', 'flyway_schema_history') ORDER BY tablename")) {
        while (r.next()) {
          tables.add(r.getString(1));
        }
      }
      for (String t : tables) {
        s.execute("CREATE OR REPLACE TRIGGER squall_fence BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON \""
            + t.replace("\"", "\"\"") + "\" FOR EACH STATEMENT EXECUTE FUNCTION squall_fence()");
      }
    }
    return tables;
  }

  /**
   * What each of the leader's connections runs when it opens: its term, and a limit on a
   * transaction left open (by a leader whose host died without closing its socket) so that it
   * cannot hold the lease row's share lock and stall a takeover.
   */
  public static String sessionSql(long term, java.time.Duration leaseTtl) {
    return "SELECT set_config('squall.term', '" + term + "', false),"
        + " set_config('idle_in_transaction_session_timeout', '" + leaseTtl.toMillis() + "', false)";
  }
}
