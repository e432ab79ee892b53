-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "wallet";

-- CreateTable
CREATE TABLE "wallet"."presentation_requests" (
    "handle" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "answered_at" TIMESTAMPTZ(3),

    CONSTRAINT "presentation_requests_pkey" PRIMARY KEY ("handle")
);

-- CreateIndex
CREATE UNIQUE INDEX "presentation_requests_state_key" ON "wallet"."presentation_requests"("state");
