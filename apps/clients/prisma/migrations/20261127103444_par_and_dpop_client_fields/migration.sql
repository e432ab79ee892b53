-- AlterTable
ALTER TABLE "clients"."clients" ADD COLUMN     "dpop_bound_access_tokens" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "require_pushed_authorization_requests" BOOLEAN NOT NULL DEFAULT false;
