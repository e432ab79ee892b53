-- CreateTable
CREATE TABLE "oauth"."derived_tokens" (
    "jti" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "family_id" UUID,
    "session_id" TEXT,
    "consent_id" UUID,
    "root_jti" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "derived_tokens_pkey" PRIMARY KEY ("jti")
);

-- CreateIndex
CREATE INDEX "derived_tokens_family_id_idx" ON "oauth"."derived_tokens"("family_id");

-- CreateIndex
CREATE INDEX "derived_tokens_session_id_idx" ON "oauth"."derived_tokens"("session_id");

-- CreateIndex
CREATE INDEX "derived_tokens_consent_id_idx" ON "oauth"."derived_tokens"("consent_id");

-- CreateIndex
CREATE INDEX "derived_tokens_root_jti_idx" ON "oauth"."derived_tokens"("root_jti");

-- CreateIndex
CREATE INDEX "derived_tokens_user_id_idx" ON "oauth"."derived_tokens"("user_id");

-- CreateIndex
CREATE INDEX "authorization_codes_access_token_jti_idx" ON "oauth"."authorization_codes"("access_token_jti");

-- CreateIndex
CREATE INDEX "refresh_tokens_access_token_jti_idx" ON "oauth"."refresh_tokens"("access_token_jti");

-- AddForeignKey
ALTER TABLE "oauth"."derived_tokens" ADD CONSTRAINT "derived_tokens_family_id_fkey" FOREIGN KEY ("family_id") REFERENCES "oauth"."refresh_token_families"("id") ON DELETE CASCADE ON UPDATE CASCADE;
