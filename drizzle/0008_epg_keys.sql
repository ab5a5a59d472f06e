CREATE TABLE "epg_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "epg_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "epg_keys" ADD CONSTRAINT "epg_keys_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "epg_keys_hash" ON "epg_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "epg_keys_live_app" ON "epg_keys" USING btree ("app_id") WHERE "epg_keys"."revoked_at" is null;