// The planner's statistics and dead rows, kept as PostgreSQL's autovacuum keeps them. A PostgreSQL
// server runs autovacuum itself; embedded PGlite runs none, so without this its planner keeps the
// statistics of an empty database forever: after a catalog import of a full slice it chose nested
// loops and an on-disk sort (an owner's export: 0.86 s for one query, 0.39 s once analyzed).
// Same thresholds as autovacuum's defaults: 50 rows plus 10% of the table changed since the last
// analyze, 50 plus 20% dead rows since the last vacuum, or 1,000 plus 20% rows inserted since the
// last vacuum (PostgreSQL 13's insert rule): a vacuum marks pages all-visible, without which an
// index-only scan reads every row's page anyway (a full slice's 460,000 block entries, read by
// the export through their covering primary key: 0.2 s of CPU on PGlite).
import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';

export interface TableUpkeep {
  analyzed: string[];
  vacuumed: string[];
}

/** Analyzes (and vacuums) the tables changed past autovacuum's thresholds; says which. */
export async function keepTableStatistics(db: Queryable): Promise<TableUpkeep> {
  // This connection's counts reach pg_stat_user_tables when it is next idle (PostgreSQL would
  // wait up to a second; PGlite's one connection is the only one that changes anything).
  await db.execute(sql`select pg_stat_force_next_flush()`);
  const stale = ((await db.execute(sql`
    select relname as "table",
      (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup) as "vacuum"
    from pg_stat_user_tables
    where schemaname = 'public'
      and (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup)
    order by relname`)) as unknown as { rows: Array<{ table: string; vacuum: boolean }> }).rows;
  const upkeep: TableUpkeep = { analyzed: [], vacuumed: [] };
  for (const { table, vacuum } of stale) {
    // A name read from the catalog, quoted as an identifier.
    await db.execute(sql.raw(`${vacuum ? 'vacuum (analyze)' : 'analyze'} "${table.replaceAll('"', '""')}"`));
    upkeep.analyzed.push(table);
    if (vacuum) upkeep.vacuumed.push(table);
  }
  return upkeep;
}
