-- A block's video ids are read in order by the export and the Studio (src/data/catalog-export.ts
-- videoIdLists) for every block of an owner: 460,000 entries in a full slice. With video_id in
-- the primary key's index the read is an index-only scan (pages marked all-visible by a vacuum,
-- src/data/table-statistics.ts) instead of one heap page visit per entry: 0.2 s of CPU less on
-- PGlite for the first export of a full slice (docs/security.md).
ALTER TABLE "schedule_block_videos" DROP CONSTRAINT "schedule_block_videos_block_id_position_pk";--> statement-breakpoint
ALTER TABLE "schedule_block_videos" ADD CONSTRAINT "schedule_block_videos_block_id_position_pk" PRIMARY KEY ("block_id","position") INCLUDE ("video_id");
