// Embedded PGlite runs no autovacuum (src/data/table-statistics.ts): the table_upkeep job
// analyzes what changed past autovacuum's thresholds, and vacuums what holds dead rows or many new
// ones (marking pages all-visible, for index-only scans), so the planner knows a full slice's size.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepTableStatistics } from '../src/data/table-statistics.ts';
import { freshDatabase, type TestDatabase } from './support/db.ts';

describe('table upkeep on embedded PGlite', () => {
  let database: TestDatabase;
  const rows = async (text: string) => ((await database.db.execute(sql.raw(text))) as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const estimate = async () => {
    const plan = await rows(`explain select * from categories where id > 0`);
    return Number(/rows=(\d+)/.exec(String(Object.values(plan[0]!)[0]))![1]);
  };
  beforeAll(async () => {
    database = await freshDatabase('pglite');
  });
  afterAll(() => database?.close());

  it('analyzes a table changed past the threshold, and only it; then nothing is left to do', async () => {
    await keepTableStatistics(database.db);
    await rows(`insert into categories (id, name) select 100000 + g, 'Category ' || g from generate_series(1, 300) g`);
    expect(await keepTableStatistics(database.db)).toEqual({ analyzed: ['categories'], vacuumed: [] });
    expect(await estimate()).toBeGreaterThan(250);
    expect(await keepTableStatistics(database.db)).toEqual({ analyzed: [], vacuumed: [] });
  });

  it('vacuums a table past the insert threshold (1,000 plus 20%): its pages become all-visible', async () => {
    await rows(`insert into categories (id, name) select 100300 + g, 'Category ' || g from generate_series(1, 4700) g`);
    expect(await keepTableStatistics(database.db)).toEqual({ analyzed: ['categories'], vacuumed: ['categories'] });
    expect(await estimate()).toBeGreaterThan(4000);
    const [visible] = await rows(`select relallvisible > 0 and relallvisible = relpages as "all" from pg_class where relname = 'categories'`);
    expect(visible).toEqual({ all: true });
    expect(await keepTableStatistics(database.db)).toEqual({ analyzed: [], vacuumed: [] });
  });

  it('vacuums a table whose rows were mostly deleted', async () => {
    await rows(`delete from categories where id > 101000`);
    const upkeep = await keepTableStatistics(database.db);
    expect(upkeep).toEqual({ analyzed: ['categories'], vacuumed: ['categories'] });
    const [stats] = await rows(`select n_dead_tup, last_vacuum is not null as vacuumed from pg_stat_user_tables where relname = 'categories'`);
    expect(stats).toEqual({ n_dead_tup: 0, vacuumed: true });
    expect(await estimate()).toBeLessThan(2000);
  });
});
