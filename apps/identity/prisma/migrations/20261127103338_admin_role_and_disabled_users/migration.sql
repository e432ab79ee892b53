-- AlterTable: a disabled account signs in by no method (docs/admin-api.md #4).
ALTER TABLE "identity"."users" ADD COLUMN "disabled_at" TIMESTAMPTZ(3);

-- CreateTable: the operator role (docs/admin-api.md #1).
CREATE TABLE "identity"."admin_roles" (
    "user_id" UUID NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_roles_pkey" PRIMARY KEY ("user_id")
);

-- AddForeignKey
ALTER TABLE "identity"."admin_roles" ADD CONSTRAINT "admin_roles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex: the admin user list pages by (created_at, id) (docs/admin-api.md #6).
CREATE INDEX "users_created_at_id_idx" ON "identity"."users"("created_at", "id");

-- CreateIndex: the audit list pages newest first by (occurred_at, id).
CREATE INDEX "audit_events_occurred_at_id_idx" ON "identity"."audit_events"("occurred_at", "id");

-- No session opens for a disabled or deleting account, whatever code inserts it
-- (docs/admin-api.md #4): the last line behind the sign-in paths' own check. The row lock
-- (FOR SHARE) makes a concurrent disable wait for this insert to commit, so the disable's
-- UPDATE of the sessions then sees and ends the new session.
CREATE FUNCTION "identity"."refuse_session_of_disabled_user"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "identity"."users"
  WHERE "id" = NEW.user_id AND "disabled_at" IS NULL AND "deleting_at" IS NULL
  FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'account_unavailable: no session for a disabled or deleting account'
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "sessions_refuse_disabled_user"
BEFORE INSERT ON "identity"."sessions"
FOR EACH ROW EXECUTE FUNCTION "identity"."refuse_session_of_disabled_user"();
