-- The version of each owner's slice: the Studio export's ETag derives from it, so an import with
-- If-Match compares one value instead of reading the whole slice. Every value comes from one
-- sequence (the column's default on insert, nextval on every write), so none ever comes back.
CREATE SEQUENCE "public"."account_slice_versions" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "slice_version" bigint DEFAULT nextval('account_slice_versions') NOT NULL;