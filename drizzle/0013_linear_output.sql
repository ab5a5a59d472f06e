-- Linear output (docs/linear.md): a video's HLS ingest, a channel's linear settings, the per-channel
-- sequence ledger written once per programme as it first airs, and viewers' personal live links.
CREATE TABLE "video_hls" (
	"video_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"source_url" text NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"ingested_at" timestamp with time zone,
	"error" text,
	"warning" text,
	"segment_count" integer DEFAULT 0 NOT NULL,
	"duration_seconds" double precision,
	"ladder" jsonb,
	"segments" text
);
--> statement-breakpoint
ALTER TABLE "video_hls" ADD CONSTRAINT "video_hls_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "video_hls_pending" ON "video_hls" USING btree ("status","requested_at");
--> statement-breakpoint
CREATE TABLE "channel_linear" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"target_duration_seconds" integer NOT NULL,
	"window_seconds" integer NOT NULL,
	"ladder" jsonb NOT NULL,
	"epoch" timestamp with time zone NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "channel_linear" ADD CONSTRAINT "channel_linear_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "linear_ledger" (
	"channel_id" integer NOT NULL,
	"programme_start" bigint NOT NULL,
	"media_sequence" bigint NOT NULL,
	"discontinuity_sequence" bigint NOT NULL,
	"video_id" integer NOT NULL,
	"segment_count" integer NOT NULL,
	"discontinuities" integer NOT NULL,
	CONSTRAINT "linear_ledger_channel_id_programme_start_pk" PRIMARY KEY("channel_id","programme_start")
);
--> statement-breakpoint
ALTER TABLE "linear_ledger" ADD CONSTRAINT "linear_ledger_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "viewer_live_links" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "viewer_live_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"viewer_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "viewer_live_links" ADD CONSTRAINT "viewer_live_links_viewer_id_accounts_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "viewer_live_links" ADD CONSTRAINT "viewer_live_links_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "viewer_live_links_hash" ON "viewer_live_links" USING btree ("key_hash");
--> statement-breakpoint
CREATE INDEX "viewer_live_links_viewer" ON "viewer_live_links" USING btree ("viewer_id");
