-- Daily rollups of closed watch sessions (issue 37, docs/activity.md "Rollups"): owner reads
-- (trends, summary) cost the days and identified devices they cover, not the sessions. Kept in
-- the statement that closes sessions (data/watch-rollups.ts), so a session is rolled up exactly
-- once; open sessions are read raw through the partial index below.
--
-- watch_day_rollups: one row per owner, UTC date, channel and source; each array holds 96
-- running totals by quarter-hour of the UTC day: element k (1-based) counts the sessions that
-- started before quarter k, so any quarter-aligned part of the day is two subscripts apart.
CREATE TABLE "watch_day_rollups" (
	"owner_id" integer NOT NULL,
	"day" date NOT NULL,
	"channel_id" integer NOT NULL,
	"source" text NOT NULL,
	"sessions" integer[] NOT NULL,
	"anonymous" integer[] NOT NULL,
	"watch_seconds" bigint[] NOT NULL,
	CONSTRAINT "watch_day_rollups_pk" PRIMARY KEY("owner_id","day","channel_id","source")
);
--> statement-breakpoint
-- watch_day_devices: the identified viewers (user_id not empty) of a rollup row, with the
-- quarter-hours of the UTC day in which they started a session (bit q from the left), so distinct
-- devices over any quarter-aligned span stay exact. Anonymous sessions are each a device of their
-- own and are counted by watch_day_rollups.anonymous.
CREATE TABLE "watch_day_devices" (
	"owner_id" integer NOT NULL,
	"day" date NOT NULL,
	"channel_id" integer NOT NULL,
	"source" text NOT NULL,
	"user_id" text NOT NULL,
	"quarters" bit(96) NOT NULL,
	CONSTRAINT "watch_day_devices_pk" PRIMARY KEY("owner_id","day","channel_id","source","user_id")
);
--> statement-breakpoint
CREATE INDEX "watch_sessions_open_owner" ON "watch_sessions" USING btree ("owner_id","started_at") WHERE "watch_sessions"."open";
--> statement-breakpoint
-- Backfill: every session closed before this migration (open ones are read raw until they close).
WITH q AS (
  SELECT owner_id, (started_at AT TIME ZONE 'UTC')::date AS day, channel_id, source, user_id,
         coalesce(credited_seconds, greatest(60, floor(extract(epoch FROM last_heartbeat_at - started_at)))::integer) AS credited,
         mod(floor(extract(epoch FROM started_at) / 900)::bigint, 96)::integer AS quarter
    FROM watch_sessions WHERE NOT open),
per_quarter AS (
  SELECT owner_id, day, channel_id, source, quarter, count(*) AS n, count(*) FILTER (WHERE user_id = '') AS anon, sum(credited) AS secs
    FROM q GROUP BY owner_id, day, channel_id, source, quarter),
grid AS (
  SELECT k.owner_id, k.day, k.channel_id, k.source, g.k
    FROM (SELECT DISTINCT owner_id, day, channel_id, source FROM per_quarter) k CROSS JOIN generate_series(1, 96) g(k)),
running AS (
  SELECT grid.owner_id, grid.day, grid.channel_id, grid.source, grid.k,
         sum(coalesce(p.n, 0)) OVER w AS n, sum(coalesce(p.anon, 0)) OVER w AS anon, sum(coalesce(p.secs, 0)) OVER w AS secs
    FROM grid LEFT JOIN per_quarter p
      ON p.owner_id = grid.owner_id AND p.day = grid.day AND p.channel_id = grid.channel_id AND p.source = grid.source AND p.quarter = grid.k - 1
  WINDOW w AS (PARTITION BY grid.owner_id, grid.day, grid.channel_id, grid.source ORDER BY grid.k))
INSERT INTO watch_day_rollups (owner_id, day, channel_id, source, sessions, anonymous, watch_seconds)
SELECT owner_id, day, channel_id, source, array_agg(n::integer ORDER BY k), array_agg(anon::integer ORDER BY k), array_agg(secs::bigint ORDER BY k)
  FROM running GROUP BY owner_id, day, channel_id, source;
--> statement-breakpoint
INSERT INTO watch_day_devices (owner_id, day, channel_id, source, user_id, quarters)
SELECT owner_id, (started_at AT TIME ZONE 'UTC')::date, channel_id, source, user_id,
       bit_or(B'1'::bit(96) >> mod(floor(extract(epoch FROM started_at) / 900)::bigint, 96)::integer)
  FROM watch_sessions WHERE NOT open AND user_id <> ''
 GROUP BY 1, 2, 3, 4, 5;
