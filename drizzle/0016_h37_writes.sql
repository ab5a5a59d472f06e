-- Per schedule block, what the Studio's write checks need without reading the block's videos:
-- how many videos it holds (a channel-day's entry count) and how long they play (its span, to
-- find the rare blocks longer than a day that reach far past their start date). Kept by
-- statement-level triggers on every path that writes blocks or durations (Studio, imports), so a
-- block write reads the few rows of the days it touches instead of the whole channel (issue 37).
-- A block without a row (rows loaded with triggers off) counts as 0 videos and a short span.
CREATE TABLE "schedule_block_figures" (
	"block_id" integer PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"video_count" integer NOT NULL,
	"span_seconds" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_block_figures" ADD CONSTRAINT "schedule_block_figures_block_id_schedule_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."schedule_blocks"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "schedule_block_figures_long" ON "schedule_block_figures" USING btree ("channel_id") WHERE "span_seconds" >= 86400;
--> statement-breakpoint
CREATE FUNCTION "schedule_block_figures_refresh"(ids integer[]) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "schedule_block_figures" ("block_id", "channel_id", "video_count", "span_seconds")
	SELECT b."id", b."channel_id",
		(SELECT count(*) FROM "schedule_block_videos" bv WHERE bv."block_id" = b."id"),
		(SELECT coalesce(sum(greatest(v."duration_seconds", 0)), 0) FROM "schedule_block_videos" bv JOIN "videos" v ON v."id" = bv."video_id" WHERE bv."block_id" = b."id")
	FROM "schedule_blocks" b WHERE b."id" = ANY(ids)
	ON CONFLICT ("block_id") DO UPDATE SET "channel_id" = excluded."channel_id", "video_count" = excluded."video_count", "span_seconds" = excluded."span_seconds";
$$;
--> statement-breakpoint
CREATE FUNCTION "schedule_block_videos_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "schedule_block_figures_refresh"(ARRAY(SELECT DISTINCT "block_id" FROM changed));
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "schedule_block_videos_figures_insert" AFTER INSERT ON "schedule_block_videos" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "schedule_block_videos_figures"();
--> statement-breakpoint
CREATE TRIGGER "schedule_block_videos_figures_delete" AFTER DELETE ON "schedule_block_videos" REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "schedule_block_videos_figures"();
--> statement-breakpoint
CREATE TRIGGER "schedule_block_videos_figures_update" AFTER UPDATE ON "schedule_block_videos" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "schedule_block_videos_figures"();
--> statement-breakpoint
CREATE FUNCTION "schedule_blocks_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "schedule_block_figures_refresh"(ARRAY(SELECT "id" FROM changed));
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "schedule_blocks_figures_insert" AFTER INSERT ON "schedule_blocks" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "schedule_blocks_figures"();
--> statement-breakpoint
CREATE TRIGGER "schedule_blocks_figures_update" AFTER UPDATE ON "schedule_blocks" REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "schedule_blocks_figures"();
--> statement-breakpoint
CREATE FUNCTION "videos_block_figures"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM "schedule_block_figures_refresh"(ARRAY(
		SELECT DISTINCT bv."block_id" FROM changed n JOIN before o ON o."id" = n."id" JOIN "schedule_block_videos" bv ON bv."video_id" = n."id"
		WHERE n."duration_seconds" IS DISTINCT FROM o."duration_seconds"));
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "videos_block_figures_update" AFTER UPDATE ON "videos" REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION "videos_block_figures"();
--> statement-breakpoint
SELECT "schedule_block_figures_refresh"(ARRAY(SELECT "id" FROM "schedule_blocks"));
