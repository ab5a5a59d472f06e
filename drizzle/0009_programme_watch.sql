CREATE TABLE "programme_airings" (
	"channel_id" integer NOT NULL,
	"airing_start" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"airing_stop" timestamp with time zone NOT NULL,
	"owner_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"is_live" boolean NOT NULL,
	"watch_seconds" double precision NOT NULL,
	"sessions" integer NOT NULL,
	"viewers" integer NOT NULL,
	"peak_viewers" integer NOT NULL,
	CONSTRAINT "programme_airings_channel_id_airing_start_source_pk" PRIMARY KEY("channel_id","airing_start","source")
);
--> statement-breakpoint
CREATE TABLE "programme_watch" (
	"session_id" bigint NOT NULL,
	"airing_start" timestamp with time zone NOT NULL,
	"airing_stop" timestamp with time zone NOT NULL,
	"owner_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"is_live" boolean NOT NULL,
	"source" text NOT NULL,
	"viewer" bigint NOT NULL,
	"watch_start" timestamp with time zone NOT NULL,
	"watch_seconds" integer NOT NULL,
	"prev_airing_start" timestamp with time zone,
	CONSTRAINT "programme_watch_session_id_airing_start_pk" PRIMARY KEY("session_id","airing_start")
);
--> statement-breakpoint
ALTER TABLE "watch_sessions" ADD COLUMN "programmes_credited" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "programme_airings_owner_source_airing" ON "programme_airings" USING btree ("owner_id","source","airing_start","video_id","channel_id","watch_seconds","sessions","peak_viewers");--> statement-breakpoint
CREATE INDEX "programme_watch_owner_airing" ON "programme_watch" USING btree ("owner_id","airing_start","channel_id","video_id","source","viewer","session_id","prev_airing_start");--> statement-breakpoint
CREATE INDEX "programme_watch_owner_video" ON "programme_watch" USING btree ("owner_id","video_id","airing_start","channel_id","source","viewer","session_id");--> statement-breakpoint
CREATE INDEX "programme_watch_channel_airing" ON "programme_watch" USING btree ("channel_id","airing_start");--> statement-breakpoint
CREATE INDEX "watch_sessions_uncredited" ON "watch_sessions" USING btree ("id") WHERE not "watch_sessions"."open" and not "watch_sessions"."programmes_credited";