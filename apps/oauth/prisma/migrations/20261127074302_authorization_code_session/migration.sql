-- CreateIndex
CREATE INDEX "authorization_codes_session_id_idx" ON "oauth"."authorization_codes"("session_id");
