CREATE TABLE "store_notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "store_notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"store_platform" text NOT NULL,
	"notification_id" text NOT NULL,
	"app_id" integer NOT NULL,
	"type" text NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"result" text,
	"applied_at" timestamp with time zone,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "store_reconciliations" (
	"app_id" integer NOT NULL,
	"store_platform" text NOT NULL,
	"read_to" timestamp with time zone NOT NULL,
	CONSTRAINT "store_reconciliations_app_id_store_platform_pk" PRIMARY KEY("app_id","store_platform")
);
--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD COLUMN "store_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "store_event_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "store_notifications_id" ON "store_notifications" USING btree ("store_platform","notification_id");--> statement-breakpoint
CREATE INDEX "store_notifications_due" ON "store_notifications" USING btree ("next_attempt_at") WHERE "store_notifications"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "store_notifications_app" ON "store_notifications" USING btree ("app_id","received_at");