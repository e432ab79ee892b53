-- AlterTable
ALTER TABLE "oauth"."refresh_token_families" ADD COLUMN     "consent_id" UUID,
ADD COLUMN     "resources" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "oauth"."consents" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_name" TEXT NOT NULL,
    "scopes" TEXT[],
    "granted_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "live" BOOLEAN DEFAULT true,

    CONSTRAINT "consents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth"."authorization_codes" (
    "id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "consent_id" UUID NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT NOT NULL,
    "scope" TEXT NOT NULL DEFAULT '',
    "resources" TEXT[],
    "nonce" TEXT,
    "auth_time" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "redeemed_at" TIMESTAMPTZ(3),
    "reused_at" TIMESTAMPTZ(3),
    "refresh_family_id" UUID,
    "access_token_jti" TEXT,
    "access_token_expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "authorization_codes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "consents_user_id_granted_at_idx" ON "oauth"."consents"("user_id", "granted_at");

-- CreateIndex
CREATE UNIQUE INDEX "consents_user_id_client_id_live_key" ON "oauth"."consents"("user_id", "client_id", "live");

-- CreateIndex
CREATE UNIQUE INDEX "authorization_codes_code_hash_key" ON "oauth"."authorization_codes"("code_hash");

-- CreateIndex
CREATE INDEX "authorization_codes_consent_id_idx" ON "oauth"."authorization_codes"("consent_id");

-- CreateIndex
CREATE INDEX "refresh_token_families_consent_id_idx" ON "oauth"."refresh_token_families"("consent_id");

-- AddForeignKey
ALTER TABLE "oauth"."refresh_token_families" ADD CONSTRAINT "refresh_token_families_consent_id_fkey" FOREIGN KEY ("consent_id") REFERENCES "oauth"."consents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth"."authorization_codes" ADD CONSTRAINT "authorization_codes_consent_id_fkey" FOREIGN KEY ("consent_id") REFERENCES "oauth"."consents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
