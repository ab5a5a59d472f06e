CREATE TABLE "accounts" (
	"id" integer PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"public_url" text NOT NULL,
	"full_name" text,
	"public_name" text,
	"status" text DEFAULT 'active' NOT NULL,
	"service_plan_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"received_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"action" text NOT NULL,
	"client_id" text,
	"user_id" text,
	"channel_id" integer,
	"payload" jsonb,
	"processed" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_channels" (
	"app_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"position" integer NOT NULL,
	"sorting" integer,
	"channel_number" text,
	"use_vast_settings" boolean DEFAULT false NOT NULL,
	"last_update_date" timestamp with time zone,
	CONSTRAINT "app_channels_app_id_channel_id_pk" PRIMARY KEY("app_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "app_images" (
	"app_id" integer NOT NULL,
	"role" text NOT NULL,
	"blob_sha256" text NOT NULL,
	CONSTRAINT "app_images_app_id_role_pk" PRIMARY KEY("app_id","role")
);
--> statement-breakpoint
CREATE TABLE "app_mobile_settings" (
	"app_id" integer PRIMARY KEY NOT NULL,
	"selection_color" text NOT NULL,
	"header_footer_color" text NOT NULL,
	"background_color" text NOT NULL,
	"font_color" text NOT NULL,
	"copyright_policy_link" text,
	"gdpr_link" text,
	"support_email" text,
	"faq_link" text,
	"terms_link" text,
	"instagram" text,
	"facebook" text,
	"twitter" text
);
--> statement-breakpoint
CREATE TABLE "app_store_credentials" (
	"app_id" integer NOT NULL,
	"store" text NOT NULL,
	"credentials" jsonb NOT NULL,
	CONSTRAINT "app_store_credentials_app_id_store_pk" PRIMARY KEY("app_id","store")
);
--> statement-breakpoint
CREATE TABLE "app_store_products" (
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"position" integer NOT NULL,
	"store_platform" text NOT NULL,
	"product_id" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"billing_period" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "app_store_products_app_id_kind_position_pk" PRIMARY KEY("app_id","kind","position")
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"platform" text NOT NULL,
	"app_name" text NOT NULL,
	"slug" text,
	"about" text,
	"privacy_policy_link" text,
	"is_paid" boolean DEFAULT false NOT NULL,
	"time_format" text DEFAULT '12-hour' NOT NULL,
	"ad_link" text,
	"api_key" text,
	"primary_color" text,
	"secondary_color" text,
	"background_color" text,
	"style_color" text,
	"vod_ppv_enabled" boolean DEFAULT false NOT NULL,
	"vod_ppv_access_hours" integer DEFAULT 48 NOT NULL,
	"vod_ppv_preview_seconds" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_tokens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auth_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"sliding_seconds" integer,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "blobs" (
	"sha256" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "brandings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"title" text,
	"hex1" text,
	"hex2" text,
	"hex3" text,
	"font_color" text,
	"header_background" text,
	"faq" text,
	"privacy_policy" text,
	"logo_header_blob" text,
	"logo_android_blob" text,
	"use_vast_settings" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_roku_settings" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"added_to_roku" boolean NOT NULL,
	"last_update_date" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "channel_unlocks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_unlocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"device_id" text,
	"viewer_id" integer,
	"unlocked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_vast_settings" (
	"channel_id" integer NOT NULL,
	"platform" text NOT NULL,
	"vast_url" text NOT NULL,
	"vast_version" integer NOT NULL,
	"skippable" boolean NOT NULL,
	"ad_frequency" integer,
	"mid_roll_frequency" integer,
	"slottable" boolean NOT NULL,
	"time_from" integer,
	"time_to" integer,
	"vast_type" text,
	"allow_ads_in_vod" boolean NOT NULL,
	CONSTRAINT "channel_vast_settings_channel_id_platform_pk" PRIMARY KEY("channel_id","platform")
);
--> statement-breakpoint
CREATE TABLE "channel_videos" (
	"channel_id" integer NOT NULL,
	"position" integer NOT NULL,
	"video_id" integer NOT NULL,
	CONSTRAINT "channel_videos_channel_id_position_pk" PRIMARY KEY("channel_id","position")
);
--> statement-breakpoint
CREATE TABLE "channel_vod_videos" (
	"channel_id" integer NOT NULL,
	"position" integer NOT NULL,
	"video_id" integer NOT NULL,
	CONSTRAINT "channel_vod_videos_channel_id_position_pk" PRIMARY KEY("channel_id","position")
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"category_id" integer NOT NULL,
	"language_id" integer,
	"picture_url" text,
	"description" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"is_white_labeled" boolean DEFAULT false NOT NULL,
	"play_live_first" boolean DEFAULT false NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"keep_guide_opened" boolean DEFAULT false NOT NULL,
	"guide_mode" text DEFAULT 'default' NOT NULL,
	"password_hash" text,
	"subscriber_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "favorites" (
	"account_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"favorited_at" timestamp with time zone NOT NULL,
	CONSTRAINT "favorites_account_id_channel_id_pk" PRIMARY KEY("account_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "live_streams" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "live_streams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"uri" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ppv_unlocks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ppv_unlocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"channel_id" integer,
	"device_id" text,
	"viewer_id" integer,
	"store_platform" text NOT NULL,
	"product_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_block_videos" (
	"block_id" integer NOT NULL,
	"position" integer NOT NULL,
	"video_id" integer NOT NULL,
	CONSTRAINT "schedule_block_videos_block_id_position_pk" PRIMARY KEY("block_id","position")
);
--> statement-breakpoint
CREATE TABLE "schedule_blocks" (
	"id" integer PRIMARY KEY NOT NULL,
	"channel_id" integer NOT NULL,
	"start_local" timestamp NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"loop_daily" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriptions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"app_id" integer NOT NULL,
	"device_id" text,
	"viewer_id" integer,
	"store_platform" text NOT NULL,
	"product_id" text NOT NULL,
	"original_transaction_id" text NOT NULL,
	"status" text NOT NULL,
	"expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_renditions" (
	"video_id" integer NOT NULL,
	"position" integer NOT NULL,
	"url" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "video_renditions_video_id_position_pk" PRIMARY KEY("video_id","position")
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" integer PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"duration_seconds" double precision NOT NULL,
	"thumbnail_url" text DEFAULT '' NOT NULL,
	"provider_name" text NOT NULL,
	"provider_video_id" text NOT NULL,
	"category_id" integer,
	"stream_url" text,
	"is_private" boolean DEFAULT false NOT NULL,
	"is_r_rated" boolean DEFAULT false NOT NULL,
	"is_removed_by_provider" boolean DEFAULT false NOT NULL,
	"is_restricted_by_provider" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "watch_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"client_id" text DEFAULT '' NOT NULL,
	"user_id" text DEFAULT '' NOT NULL,
	"channel_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_heartbeat_at" timestamp with time zone NOT NULL,
	"heartbeats" integer DEFAULT 1 NOT NULL,
	"open" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_channels" ADD CONSTRAINT "app_channels_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_channels" ADD CONSTRAINT "app_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_images" ADD CONSTRAINT "app_images_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_images" ADD CONSTRAINT "app_images_blob_sha256_blobs_sha256_fk" FOREIGN KEY ("blob_sha256") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_mobile_settings" ADD CONSTRAINT "app_mobile_settings_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_store_credentials" ADD CONSTRAINT "app_store_credentials_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_store_products" ADD CONSTRAINT "app_store_products_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brandings" ADD CONSTRAINT "brandings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brandings" ADD CONSTRAINT "brandings_logo_header_blob_blobs_sha256_fk" FOREIGN KEY ("logo_header_blob") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brandings" ADD CONSTRAINT "brandings_logo_android_blob_blobs_sha256_fk" FOREIGN KEY ("logo_android_blob") REFERENCES "public"."blobs"("sha256") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_roku_settings" ADD CONSTRAINT "channel_roku_settings_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_unlocks" ADD CONSTRAINT "channel_unlocks_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_unlocks" ADD CONSTRAINT "channel_unlocks_viewer_id_accounts_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_vast_settings" ADD CONSTRAINT "channel_vast_settings_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_videos" ADD CONSTRAINT "channel_videos_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_videos" ADD CONSTRAINT "channel_videos_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_vod_videos" ADD CONSTRAINT "channel_vod_videos_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_vod_videos" ADD CONSTRAINT "channel_vod_videos_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorites" ADD CONSTRAINT "favorites_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_streams" ADD CONSTRAINT "live_streams_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_streams" ADD CONSTRAINT "live_streams_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD CONSTRAINT "ppv_unlocks_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD CONSTRAINT "ppv_unlocks_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD CONSTRAINT "ppv_unlocks_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD CONSTRAINT "ppv_unlocks_viewer_id_accounts_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_block_videos" ADD CONSTRAINT "schedule_block_videos_block_id_schedule_blocks_id_fk" FOREIGN KEY ("block_id") REFERENCES "public"."schedule_blocks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_block_videos" ADD CONSTRAINT "schedule_block_videos_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_blocks" ADD CONSTRAINT "schedule_blocks_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_viewer_id_accounts_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_renditions" ADD CONSTRAINT "video_renditions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_owner_id_accounts_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_username_lower" ON "accounts" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_email_lower" ON "accounts" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_public_url_lower" ON "accounts" USING btree (lower("public_url"));--> statement-breakpoint
CREATE INDEX "activity_events_received" ON "activity_events" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "activity_events_channel" ON "activity_events" USING btree ("channel_id","received_at");--> statement-breakpoint
CREATE INDEX "app_channels_channel" ON "app_channels" USING btree ("channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "app_store_products_sku" ON "app_store_products" USING btree ("app_id","kind","store_platform","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "apps_owner_platform" ON "apps" USING btree ("owner_id","platform");--> statement-breakpoint
CREATE UNIQUE INDEX "auth_tokens_hash" ON "auth_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "auth_tokens_account" ON "auth_tokens" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_unlocks_device" ON "channel_unlocks" USING btree ("channel_id","device_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_unlocks_viewer" ON "channel_unlocks" USING btree ("channel_id","viewer_id");--> statement-breakpoint
CREATE INDEX "channel_videos_video" ON "channel_videos" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "channel_vod_videos_video" ON "channel_vod_videos" USING btree ("video_id","channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channels_owner_url" ON "channels" USING btree ("owner_id","url");--> statement-breakpoint
CREATE INDEX "channels_owner_order" ON "channels" USING btree ("owner_id","sort_order","id");--> statement-breakpoint
CREATE INDEX "favorites_account_recent" ON "favorites" USING btree ("account_id","favorited_at");--> statement-breakpoint
CREATE INDEX "live_streams_channel_start" ON "live_streams" USING btree ("channel_id","start_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ppv_unlocks_transaction" ON "ppv_unlocks" USING btree ("app_id","store_platform","transaction_id");--> statement-breakpoint
CREATE INDEX "ppv_unlocks_device" ON "ppv_unlocks" USING btree ("app_id","video_id","device_id");--> statement-breakpoint
CREATE INDEX "ppv_unlocks_viewer" ON "ppv_unlocks" USING btree ("app_id","video_id","viewer_id");--> statement-breakpoint
CREATE INDEX "schedule_block_videos_video" ON "schedule_block_videos" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "schedule_blocks_channel_start" ON "schedule_blocks" USING btree ("channel_id","loop_daily","start_local");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_transaction" ON "subscriptions" USING btree ("app_id","store_platform","original_transaction_id");--> statement-breakpoint
CREATE INDEX "subscriptions_device" ON "subscriptions" USING btree ("app_id","device_id");--> statement-breakpoint
CREATE INDEX "subscriptions_viewer" ON "subscriptions" USING btree ("app_id","viewer_id");--> statement-breakpoint
CREATE INDEX "videos_owner" ON "videos" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "watch_sessions_open_key" ON "watch_sessions" USING btree ("source","client_id","user_id","channel_id") WHERE "watch_sessions"."open";--> statement-breakpoint
CREATE INDEX "watch_sessions_owner_started" ON "watch_sessions" USING btree ("owner_id","started_at");--> statement-breakpoint
CREATE INDEX "watch_sessions_channel_started" ON "watch_sessions" USING btree ("channel_id","started_at");