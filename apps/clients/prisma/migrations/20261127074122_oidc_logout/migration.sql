-- AlterTable
ALTER TABLE "clients"."clients" ADD COLUMN     "backchannel_logout_session_required" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "backchannel_logout_uri" TEXT,
ADD COLUMN     "post_logout_redirect_uris" TEXT[] DEFAULT ARRAY[]::TEXT[];
