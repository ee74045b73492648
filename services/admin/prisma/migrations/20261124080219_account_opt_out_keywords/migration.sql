-- AlterTable
ALTER TABLE "admin"."account" ADD COLUMN     "opt_out_keywords" TEXT[] DEFAULT ARRAY[]::TEXT[];
