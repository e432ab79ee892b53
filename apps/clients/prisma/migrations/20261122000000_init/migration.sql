-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "clients";

-- CreateTable
CREATE TABLE "clients"."clients" (
    "id" UUID NOT NULL,
    "client_id" TEXT NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "description" TEXT,
    "redirect_uris" TEXT[],
    "scopes" TEXT[],
    "grant_types" TEXT[],
    "response_types" TEXT[],
    "token_endpoint_auth_method" TEXT NOT NULL,
    "secret_hash" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "require_pkce" BOOLEAN NOT NULL DEFAULT true,
    "developer_id" UUID,
    "realm_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "clients_client_id_key" ON "clients"."clients"("client_id");

-- CreateIndex
CREATE INDEX "clients_developer_id_idx" ON "clients"."clients"("developer_id");
