-- AlterTable
ALTER TABLE "admin"."account" ADD COLUMN     "balance" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "billing_mode" TEXT NOT NULL DEFAULT 'postpaid';

-- CreateTable
CREATE TABLE "admin"."account_debit" (
    "account_id" UUID NOT NULL,
    "reference" TEXT NOT NULL,
    "parts" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_debit_pkey" PRIMARY KEY ("account_id","reference")
);

-- AddForeignKey
ALTER TABLE "admin"."account_debit" ADD CONSTRAINT "account_debit_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "admin"."account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- By hand (Prisma has no syntax for CHECK): the balance can never go below zero, whatever a
-- debit's SQL does, and only known billing modes and positive debits are stored.
ALTER TABLE "admin"."account" ADD CONSTRAINT "account_balance_not_negative" CHECK ("balance" >= 0);
ALTER TABLE "admin"."account" ADD CONSTRAINT "account_billing_mode_known" CHECK ("billing_mode" IN ('postpaid', 'prepaid'));
ALTER TABLE "admin"."account_debit" ADD CONSTRAINT "account_debit_parts_positive" CHECK ("parts" > 0);
