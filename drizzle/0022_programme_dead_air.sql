-- Dead air in the programme list (issue 36 item 3, docs/activity.md): each credited session's
-- watching while nothing was on air, stored by the crediter beside its programme_watch rows. The
-- sessions credited before this migration get theirs from their stored rows (the last statement:
-- the rule of deadAirPieces in src/sessions/programme-attribution.ts, and viewerOf's hash, in SQL).
CREATE TABLE "programme_dead_air" (
	"session_id" bigint NOT NULL,
	"watch_start" timestamp with time zone NOT NULL,
	"owner_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"source" text NOT NULL,
	"viewer" bigint NOT NULL,
	"watch_seconds" integer NOT NULL,
	CONSTRAINT "programme_dead_air_session_id_watch_start_pk" PRIMARY KEY("session_id","watch_start")
);
--> statement-breakpoint
CREATE INDEX "programme_dead_air_owner_start" ON "programme_dead_air" USING btree ("owner_id","watch_start","channel_id","source","viewer","session_id","watch_seconds");--> statement-breakpoint
INSERT INTO "programme_dead_air" ("session_id", "watch_start", "owner_id", "channel_id", "source", "viewer", "watch_seconds")
WITH s AS (
  SELECT ws.id, ws.owner_id, ws.channel_id, ws.source,
         ('x' || encode(substring(sha256(convert_to(CASE WHEN ws.client_id <> '' THEN 'c|' || ws.source || '|' || ws.client_id
                                                          WHEN ws.user_id <> '' THEN 'u|' || ws.user_id
                                                          ELSE 's|' || ws.id::text END, 'UTF8')) FROM 1 FOR 8), 'hex'))::bit(64)::bigint AS viewer,
         floor(extract(epoch FROM ws.started_at))::bigint AS s_first,
         greatest(floor(extract(epoch FROM ws.started_at)), floor(extract(epoch FROM ws.last_heartbeat_at)))::bigint AS s_last
    FROM watch_sessions ws
   WHERE ws.programmes_credited),
marks AS (
  SELECT pw.session_id AS id, floor(extract(epoch FROM pw.watch_start))::bigint AS a,
         floor(extract(epoch FROM pw.watch_start))::bigint + pw.watch_seconds AS b, 1 AS programme
    FROM programme_watch pw JOIN s ON s.id = pw.session_id
  UNION ALL
  SELECT s.id, s.s_last, s.s_last, 0 FROM s),
gaps AS (
  SELECT m.id, greatest(s.s_first, coalesce(max(m.b) OVER (PARTITION BY m.id ORDER BY m.a, m.b ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), s.s_first)) AS gap_from,
         m.a AS gap_to, sum(m.programme) OVER (PARTITION BY m.id) AS programmes
    FROM marks m JOIN s ON s.id = m.id)
SELECT s.id, to_timestamp(g.gap_from), s.owner_id, s.channel_id, s.source, s.viewer, (g.gap_to - g.gap_from)::integer
  FROM gaps g JOIN s ON s.id = g.id
 WHERE g.gap_to > g.gap_from OR g.programmes = 0
ON CONFLICT DO NOTHING;
