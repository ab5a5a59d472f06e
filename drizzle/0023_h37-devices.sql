-- Distinct identified devices kept exact as sessions close (issue 37, docs/activity.md "Devices
-- per zone day and range"): a trend read counts devices per zone day from per-pair-of-days
-- counts and per range from per-device day bitmaps, instead of sorting every device-day of the
-- range. Kept by the statement that closes sessions (data/watch-rollups.ts closingWithRollup);
-- a scope is a channel and a source, 0 or '' standing for all of them.
--
-- watch_pair_devices: per device, scope and pair of UTC days (day, day + 1), the last
-- quarter-hour of `day` in which it started a session (-1: none) and the first of the next day
-- (96: none); was_*: the values before the last write, from which the closing statement adds the
-- exact change to watch_pair_counts.
CREATE TABLE "watch_pair_devices" (
	"owner_id" integer NOT NULL,
	"day" date NOT NULL,
	"channel_id" integer NOT NULL,
	"source" text NOT NULL,
	"user_id" text NOT NULL,
	"max_a" integer NOT NULL,
	"min_b" integer NOT NULL,
	"was_max_a" integer NOT NULL,
	"was_min_b" integer NOT NULL,
	CONSTRAINT "watch_pair_devices_pk" PRIMARY KEY("owner_id","day","channel_id","source","user_id")
);
--> statement-breakpoint
-- watch_pair_counts: element s + 1 is the devices of the zone day that starts at quarter s of
-- `day` (and ends at quarter s of the next day): those with max_a >= s or min_b < s. No row:
-- none (a pair whose devices all started sessions at 23:45 of its second day only).
CREATE TABLE "watch_pair_counts" (
	"owner_id" integer NOT NULL,
	"day" date NOT NULL,
	"channel_id" integer NOT NULL,
	"source" text NOT NULL,
	"members" integer[] NOT NULL,
	CONSTRAINT "watch_pair_counts_pk" PRIMARY KEY("owner_id","day","channel_id","source")
);
--> statement-breakpoint
-- watch_device_spans: per device and scope, the UTC days it started a session on: bit i (from
-- the left) of `days` is first_day + i, up to last_day. A range reads the devices seen around it.
CREATE TABLE "watch_device_spans" (
	"owner_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"source" text NOT NULL,
	"user_id" text NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"days" bit varying NOT NULL,
	CONSTRAINT "watch_device_spans_pk" PRIMARY KEY("owner_id","channel_id","source","user_id")
);
--> statement-breakpoint
-- The devices seen since a day (a range's read), and over all channels and sources (what the read
-- counts to pick its way). Not (owner, channel, source, last_day): a probe by the primary key's
-- columns found that index first and filtered a scope's devices for the user (96 ms a read).
CREATE INDEX "watch_device_spans_recent" ON "watch_device_spans" USING btree ("owner_id","last_day","channel_id","source");
--> statement-breakpoint
CREATE INDEX "watch_device_spans_seen" ON "watch_device_spans" USING btree ("owner_id","last_day") WHERE "watch_device_spans"."channel_id" = 0 and "watch_device_spans"."source" = '';
--> statement-breakpoint
-- Backfill from watch_day_devices (every session closed before this migration; the quarters of
-- a device-day under each scope are the OR of its rows).
INSERT INTO watch_pair_devices (owner_id, day, channel_id, source, user_id, max_a, min_b, was_max_a, was_min_b)
WITH scoped AS (
  SELECT d.owner_id, d.day, v.c AS channel_id, v.s AS source, d.user_id, bit_or(d.quarters) AS qs
    FROM watch_day_devices d CROSS JOIN LATERAL (VALUES (d.channel_id, d.source), (d.channel_id, ''), (0, d.source), (0, '')) v(c, s)
   GROUP BY 1, 2, 3, 4, 5),
spans AS (
  SELECT owner_id, day, channel_id, source, user_id, position('1' IN qs::text) - 1 AS lo, 96 - position('1' IN reverse(qs::text)) AS hi FROM scoped)
SELECT owner_id, day, channel_id, source, user_id, max(max_a), min(min_b), -1, 96
  FROM (SELECT owner_id, day, channel_id, source, user_id, hi AS max_a, 96 AS min_b FROM spans
        UNION ALL
        SELECT owner_id, day - 1, channel_id, source, user_id, -1, lo FROM spans) x
 GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
INSERT INTO watch_pair_counts (owner_id, day, channel_id, source, members)
SELECT owner_id, day, channel_id, source, array_agg(n ORDER BY s)
  FROM (SELECT p.owner_id, p.day, p.channel_id, p.source, g.s, count(*) FILTER (WHERE p.max_a >= g.s OR p.min_b < g.s)::integer AS n
          FROM watch_pair_devices p CROSS JOIN generate_series(0, 95) g(s)
         GROUP BY 1, 2, 3, 4, 5) c
 GROUP BY 1, 2, 3, 4
HAVING max(n) > 0;
--> statement-breakpoint
INSERT INTO watch_device_spans (owner_id, channel_id, source, user_id, first_day, last_day, days)
WITH scoped AS (
  SELECT DISTINCT d.owner_id, v.c AS channel_id, v.s AS source, d.user_id, d.day
    FROM watch_day_devices d CROSS JOIN LATERAL (VALUES (d.channel_id, d.source), (d.channel_id, ''), (0, d.source), (0, '')) v(c, s)),
spans AS (
  SELECT *, min(day) OVER w AS first_day, max(day) OVER w AS last_day FROM scoped WINDOW w AS (PARTITION BY owner_id, channel_id, source, user_id))
SELECT owner_id, channel_id, source, user_id, first_day, last_day, bit_or(rpad(lpad('1', day - first_day + 1, '0'), last_day - first_day + 1, '0')::varbit)
  FROM spans GROUP BY 1, 2, 3, 4, 5, 6;
