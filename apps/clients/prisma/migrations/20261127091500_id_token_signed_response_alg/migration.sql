-- AlterTable
ALTER TABLE "clients"."clients" ADD COLUMN     "id_token_signed_response_alg" TEXT NOT NULL DEFAULT 'EdDSA';
