-- A channel's programming tools: the weekly slot plan and the filler list the Studio's generator
-- reads, and the last programming write (added block ids, removed blocks) for one undo.
CREATE TABLE "channel_programming" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"slots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filler_video_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_write" jsonb
);
--> statement-breakpoint
ALTER TABLE "channel_programming" ADD CONSTRAINT "channel_programming_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;
