-- AlterTable
ALTER TABLE "clients"."clients" ADD COLUMN     "agent_scope_modes" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "audience" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "environment" TEXT NOT NULL DEFAULT 'development',
ADD COLUMN     "is_agent" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "jwks" JSONB,
ADD COLUMN     "jwks_uri" TEXT,
ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'pre_registered';

-- CreateTable
CREATE TABLE "clients"."api_keys" (
    "id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "prefix" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "clients"."api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_client_id_idx" ON "clients"."api_keys"("client_id");

-- AddForeignKey
ALTER TABLE "clients"."api_keys" ADD CONSTRAINT "api_keys_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"."clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;
