-- AlterTable
ALTER TABLE "identity"."sessions" ADD COLUMN     "last_seen_at" TIMESTAMPTZ(3),
ADD COLUMN     "user_agent" TEXT;

-- AlterTable
ALTER TABLE "identity"."users" ADD COLUMN     "deleting_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "users_deleting_at_idx" ON "identity"."users"("deleting_at");
