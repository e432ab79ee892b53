-- CreateIndex
CREATE INDEX "refresh_token_families_user_id_idx" ON "oauth"."refresh_token_families"("user_id");
