-- The owner's audit records the caller's address: a TV app token may be revoked by anyone who holds
-- it (REST logout, as the spec asks), and the owner should see that it happened and from where.
ALTER TABLE "studio_audit" ADD COLUMN "address" text;
