-- AlterTable
ALTER TABLE "oauth"."authorization_codes" ADD COLUMN     "dpop_jkt" TEXT;

-- AlterTable
ALTER TABLE "oauth"."refresh_token_families" ADD COLUMN     "dpop_jkt" TEXT;
