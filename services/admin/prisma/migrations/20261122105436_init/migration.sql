-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "admin";

-- CreateTable
CREATE TABLE "admin"."account" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "password_hash" TEXT,
    "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "number_scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "reply_path_url" TEXT,
    "reply_path_method" TEXT NOT NULL DEFAULT 'POST',
    "delivery_report_url" TEXT,
    "voice_report_url" TEXT,
    "rate_limit_per_second" INTEGER NOT NULL DEFAULT 10,
    "rate_limit_burst" INTEGER NOT NULL DEFAULT 20,
    "sms_throughput_per_second" INTEGER NOT NULL DEFAULT 100,
    "ip_allow_list" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "sender_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "admin"."api_key" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_name_key_key" ON "admin"."account"("name_key");

-- CreateIndex
CREATE INDEX "api_key_account_id_idx" ON "admin"."api_key"("account_id");

-- AddForeignKey
ALTER TABLE "admin"."api_key" ADD CONSTRAINT "api_key_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "admin"."account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
