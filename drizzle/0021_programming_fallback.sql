-- Filler that pads (issue 36 item 3, docs/programming.md): a channel's dead-air fallback, the
-- owner's collection that fills what is left of a slot's time after its programme, rolls,
-- padding and filler (null: none, the time stays declared dead air).
ALTER TABLE "channel_programming" ADD COLUMN "fallback_collection_id" integer;
