-- Rows of the session-end outbox are deleted once relayed (docs/identity.md #17), so the
-- "enqueued" mark was never written; the relay reads the oldest rows first.
DROP INDEX "identity"."session_end_outbox_enqueued_at_created_at_idx";
ALTER TABLE "identity"."session_end_outbox" DROP COLUMN "enqueued_at";
CREATE INDEX "session_end_outbox_created_at_idx" ON "identity"."session_end_outbox"("created_at");
