-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "oauth";

-- CreateTable
CREATE TABLE "oauth"."signing_keys" (
    "kid" TEXT NOT NULL,
    "alg" TEXT NOT NULL DEFAULT 'EdDSA',
    "public_jwk" JSONB NOT NULL,
    "private_key_encrypted" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),
    "publish_until" TIMESTAMPTZ(3),

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE INDEX "signing_keys_status_idx" ON "oauth"."signing_keys"("status");
