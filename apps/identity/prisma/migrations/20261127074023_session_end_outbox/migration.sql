-- CreateTable
CREATE TABLE "identity"."session_end_outbox" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "session_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "enqueued_at" TIMESTAMPTZ(3),

    CONSTRAINT "session_end_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "session_end_outbox_session_id_key" ON "identity"."session_end_outbox"("session_id");

-- CreateIndex
CREATE INDEX "session_end_outbox_enqueued_at_created_at_idx" ON "identity"."session_end_outbox"("enqueued_at", "created_at");

-- Every end of a live session writes one outbox row in the ending transaction: an ended_at
-- set (logout, RP-initiated logout, password reset, session revocation) or a live row deleted
-- (account deletion cascades). An expired session that nobody ended is not an end.
CREATE FUNCTION "identity"."record_session_end"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL THEN
      INSERT INTO "identity"."session_end_outbox" ("session_id", "user_id", "ended_at")
      VALUES (NEW.id, NEW.user_id, NEW.ended_at)
      ON CONFLICT ("session_id") DO NOTHING;
    END IF;
    RETURN NEW;
  END IF;
  IF OLD.ended_at IS NULL AND OLD.expires_at > CURRENT_TIMESTAMP THEN
    INSERT INTO "identity"."session_end_outbox" ("session_id", "user_id", "ended_at")
    VALUES (OLD.id, OLD.user_id, CURRENT_TIMESTAMP)
    ON CONFLICT ("session_id") DO NOTHING;
  END IF;
  RETURN OLD;
END;
$$;

CREATE TRIGGER "sessions_end_outbox"
AFTER UPDATE OF "ended_at" OR DELETE ON "identity"."sessions"
FOR EACH ROW EXECUTE FUNCTION "identity"."record_session_end"();
