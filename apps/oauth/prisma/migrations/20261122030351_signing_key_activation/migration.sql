-- AlterTable
ALTER TABLE "oauth"."signing_keys" ADD COLUMN     "activates_at" TIMESTAMPTZ(3);
