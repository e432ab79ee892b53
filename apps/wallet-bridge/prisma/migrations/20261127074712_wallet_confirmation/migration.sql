-- docs/wallet.md #16-#20: a flow name apart from the transport handle, the served-once mark, the
-- verified credential awaiting the starting browser's decision, and the same-device response code.
-- AlterTable
ALTER TABLE "wallet"."presentation_requests" ADD COLUMN     "flow_id" TEXT,
ADD COLUMN     "presented" TEXT,
ADD COLUMN     "response_code_hash" TEXT,
ADD COLUMN     "served_at" TIMESTAMPTZ(3);

-- Flows started before this migration get a name no browser holds (not shaped as a flow id):
-- they end as the uniform refusal, and the sweeper removes them within the hour.
UPDATE "wallet"."presentation_requests" SET "flow_id" = 'retired-' || md5(random()::text || "handle");
ALTER TABLE "wallet"."presentation_requests" ALTER COLUMN "flow_id" SET NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "presentation_requests_flow_id_key" ON "wallet"."presentation_requests"("flow_id");

-- CreateIndex
CREATE UNIQUE INDEX "presentation_requests_response_code_hash_key" ON "wallet"."presentation_requests"("response_code_hash");
