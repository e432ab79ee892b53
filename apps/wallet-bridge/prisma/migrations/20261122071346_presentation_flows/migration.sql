-- AlterTable
ALTER TABLE "wallet"."presentation_requests" ADD COLUMN     "binder_hash" TEXT NOT NULL,
ADD COLUMN     "settled_at" TIMESTAMPTZ(3),
ADD COLUMN     "user_id" UUID,
ADD COLUMN     "vp_token" TEXT;

-- CreateIndex
CREATE INDEX "presentation_requests_expires_at_idx" ON "wallet"."presentation_requests"("expires_at");
