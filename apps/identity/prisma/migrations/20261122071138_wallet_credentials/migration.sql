-- CreateTable
CREATE TABLE "identity"."wallet_credentials" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject_hash" TEXT NOT NULL,
    "email" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "wallet_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "wallet_credentials_subject_hash_key" ON "identity"."wallet_credentials"("subject_hash");

-- CreateIndex
CREATE INDEX "wallet_credentials_user_id_idx" ON "identity"."wallet_credentials"("user_id");

-- AddForeignKey
ALTER TABLE "identity"."wallet_credentials" ADD CONSTRAINT "wallet_credentials_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
