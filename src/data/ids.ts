// Public ids the service assigns: one sequence per table (migration 0010), from 10,000,000 up,
// apart from the ids people choose (src/catalog/ids.ts). Sequences hand out distinct values to
// concurrent transactions without a lock and never move back, so one owner's create cannot
// change or block another's. A value some row already holds (the operator's catalog import may
// bring ids of that range) is stepped over.
import { inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../db/connect.ts';
import * as t from '../db/schema.ts';

const ID_TABLES = {
  accounts: t.accounts, videos: t.videos, channels: t.channels, apps: t.apps, scheduleBlocks: t.scheduleBlocks, categories: t.categories, languages: t.languages,
} as const;
export type IdTable = keyof typeof ID_TABLES;

/** The SQL names of each table and of its identity sequence (drizzle/0010_id_sequences.sql). */
const SQL_NAMES: Record<IdTable, string> = {
  accounts: 'accounts', videos: 'videos', channels: 'channels', apps: 'apps', scheduleBlocks: 'schedule_blocks', categories: 'categories', languages: 'languages',
};
const sequenceOf = (table: IdTable) => `${SQL_NAMES[table]}_id_seq`;
const MAX_ID = 2_147_483_647;

/** Advisory lock namespace of Studio writes ('ST'); key 0: the id sequences. */
const LOCK_SPACE = 0x5354;
const SEQUENCES_KEY = 0;

/**
 * Taken (shared) by every transaction that draws ids, until it ends: many draw at once, while
 * advanceSequences (exclusive) waits for them and they for it, so a sequence is never set back
 * below a value that is being handed out.
 */
export async function lockSequencesShared(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${LOCK_SPACE}::int, ${SEQUENCES_KEY}::int)`);
}

/** Which of `ids` are in use in `table`, whoever owns them. */
export async function takenIds(tx: Queryable, table: IdTable, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const target = ID_TABLES[table];
  const rows = await tx.select({ id: target.id }).from(target).where(inArray(target.id, [...ids]));
  return rows.map((r) => r.id);
}

async function draw(tx: Queryable, table: IdTable, count: number): Promise<number[]> {
  const result = await tx.execute<{ id: number }>(sql`select nextval(${sequenceOf(table)}::regclass)::integer as id from generate_series(1, ${count}::int)`);
  return (result as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * `count` new ids of `table`, ascending, none held by a row. Call lockSequencesShared first.
 * Past the last value (2,147,483,647) the sequence fails the query: a range of two billion ids
 * that no owner's choice can consume.
 */
export async function nextIds(tx: Queryable, table: IdTable, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let wanted = count; wanted > 0; ) {
    const drawn = await draw(tx, table, wanted);
    const taken = new Set(await takenIds(tx, table, drawn));
    const free = drawn.filter((id) => !taken.has(id));
    ids.push(...free);
    wanted -= free.length;
  }
  return ids.sort((a, b) => a - b);
}

/**
 * Moves each sequence past the run of ids rows hold from its next value on (after the catalog
 * import wrote ids of the assigned range, e.g. an export of this service), so the next create
 * does not step over them one by one. Ids further up are stepped over when reached. Waits for
 * transactions drawing ids (see lockSequencesShared) and holds them off until it commits.
 */
export async function advanceSequences(tx: Queryable): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}::int, ${SEQUENCES_KEY}::int)`);
  for (const table of Object.keys(SQL_NAMES) as IdTable[]) {
    const rows = sql.identifier(SQL_NAMES[table]);
    const sequence = sql.identifier(sequenceOf(table));
    await tx.execute(sql`
      select setval(${sequenceOf(table)}::regclass, f.id, false) from (
        select (select min(c.id) from (select s.next as id union all select r.id::bigint + 1 from ${rows} r where r.id >= s.next) c
                where not exists (select 1 from ${rows} x where x.id = c.id)) as id
        from (select case when is_called then last_value + 1 else last_value end as next from ${sequence}) s) f
      where f.id <= ${MAX_ID}`);
  }
}
