-- Selling with prices (issue 36 item 6): the price and currency a store reported with a verified
-- purchase or renewal, kept as millionths of the currency unit (Apple reports milli-units, Google
-- micros, Roku a decimal amount: micros hold each exactly). Null: the store reported no price
-- (Amazon's RVS, Google's one-time products, an answer without a currency): unknown, never zero.
-- price_product_id is the store's product of that transaction (product_id is what the client sent).
ALTER TABLE "verification_attempts" ADD COLUMN "price_micros" bigint;
--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "price_currency" text;
--> statement-breakpoint
ALTER TABLE "verification_attempts" ADD COLUMN "price_product_id" text;
--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD COLUMN "price_micros" bigint;
--> statement-breakpoint
ALTER TABLE "ppv_unlocks" ADD COLUMN "price_currency" text;
