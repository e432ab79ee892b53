-- CreateTable
CREATE TABLE "identity"."federated_credentials" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject_hash" TEXT NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "federated_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "federated_credentials_subject_hash_key" ON "identity"."federated_credentials"("subject_hash");

-- CreateIndex
CREATE INDEX "federated_credentials_user_id_idx" ON "identity"."federated_credentials"("user_id");

-- AddForeignKey
ALTER TABLE "identity"."federated_credentials" ADD CONSTRAINT "federated_credentials_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
