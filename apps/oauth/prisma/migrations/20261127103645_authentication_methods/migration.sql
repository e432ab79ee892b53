-- AlterTable
ALTER TABLE "oauth"."authorization_codes" ADD COLUMN     "amr" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "oauth"."refresh_token_families" ADD COLUMN     "amr" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "auth_time" TIMESTAMPTZ(3);
