-- AlterTable
ALTER TABLE "admin"."account" ADD COLUMN     "batch_max_recipients" INTEGER,
ADD COLUMN     "numbers_monthly_quota" INTEGER;
