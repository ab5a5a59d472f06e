ALTER TABLE "watch_sessions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "watch_sessions" ADD COLUMN "credited_seconds" integer;--> statement-breakpoint
CREATE INDEX "activity_events_viewer" ON "activity_events" USING btree ("user_id","received_at") WHERE "activity_events"."action" in ('login', 'logout');