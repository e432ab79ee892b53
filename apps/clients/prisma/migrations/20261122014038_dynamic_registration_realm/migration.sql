-- AlterTable
ALTER TABLE "clients"."clients" ALTER COLUMN "realm_id" DROP NOT NULL;
