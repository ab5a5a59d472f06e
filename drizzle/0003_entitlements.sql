CREATE TABLE "verification_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "verification_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" integer NOT NULL,
	"device_id" text,
	"viewer_id" integer,
	"route" text NOT NULL,
	"store_platform" text NOT NULL,
	"product_id" text,
	"original_transaction_id" text,
	"transaction_id" text,
	"receipt_sha256" text,
	"video_id" integer,
	"channel_id" integer,
	"outcome" text NOT NULL,
	"reason" text,
	"granted" boolean NOT NULL,
	"store_answer" jsonb,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "environment" text DEFAULT 'production' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "auto_renewing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "lookup_id" text;--> statement-breakpoint
CREATE INDEX "verification_attempts_app" ON "verification_attempts" USING btree ("app_id","at");--> statement-breakpoint
CREATE INDEX "verification_attempts_transaction" ON "verification_attempts" USING btree ("original_transaction_id");--> statement-breakpoint
CREATE INDEX "verification_attempts_device" ON "verification_attempts" USING btree ("device_id");