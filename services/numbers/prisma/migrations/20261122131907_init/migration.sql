-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "numbers";

-- CreateTable
CREATE TABLE "numbers"."snapshot" (
    "id" SERIAL NOT NULL,
    "snapshot_date" DATE NOT NULL,
    "valid_until" TIMESTAMPTZ(3) NOT NULL,
    "history_since" DATE NOT NULL,
    "checksum" TEXT NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "snapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "numbers"."current_snapshot" (
    "singleton" BOOLEAN NOT NULL DEFAULT true,
    "snapshot_id" INTEGER NOT NULL,
    "switched_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "current_snapshot_pkey" PRIMARY KEY ("singleton")
);

-- CreateTable
CREATE TABLE "numbers"."service_provider" (
    "snapshot_id" INTEGER NOT NULL,
    "spid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "brands" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "host_mcc" TEXT,
    "host_mnc" TEXT,
    "host_name" TEXT,

    CONSTRAINT "service_provider_pkey" PRIMARY KEY ("snapshot_id","spid")
);

-- CreateTable
CREATE TABLE "numbers"."number_range" (
    "snapshot_id" INTEGER NOT NULL,
    "prefix" TEXT NOT NULL,
    "holder_spid" TEXT NOT NULL,

    CONSTRAINT "number_range_pkey" PRIMARY KEY ("snapshot_id","prefix")
);

-- CreateTable
CREATE TABLE "numbers"."ported_number" (
    "snapshot_id" INTEGER NOT NULL,
    "number" TEXT NOT NULL,
    "recipient_spid" TEXT NOT NULL,
    "ported_at" DATE NOT NULL,

    CONSTRAINT "ported_number_pkey" PRIMARY KEY ("snapshot_id","number")
);

-- CreateTable
CREATE TABLE "numbers"."port_history" (
    "number" TEXT NOT NULL,
    "ported_at" DATE NOT NULL,
    "donor_spid" TEXT NOT NULL,
    "recipient_spid" TEXT NOT NULL,
    "donor_name" TEXT NOT NULL,
    "recipient_name" TEXT NOT NULL,
    "first_snapshot_id" INTEGER NOT NULL,

    CONSTRAINT "port_history_pkey" PRIMARY KEY ("number","ported_at","donor_spid","recipient_spid")
);

-- CreateTable
CREATE TABLE "numbers"."live_status" (
    "msisdn" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,
    "as_of" TIMESTAMPTZ(3) NOT NULL,
    "valid_until" TIMESTAMPTZ(3) NOT NULL,
    "imsi" TEXT,
    "mcc" TEXT,
    "mnc" TEXT,
    "network" TEXT,

    CONSTRAINT "live_status_pkey" PRIMARY KEY ("msisdn")
);

-- CreateTable
CREATE TABLE "numbers"."lookup_count" (
    "account_id" TEXT NOT NULL,
    "month" DATE NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "lookup_count_pkey" PRIMARY KEY ("account_id","month")
);

-- CreateIndex
CREATE UNIQUE INDEX "snapshot_snapshot_date_key" ON "numbers"."snapshot"("snapshot_date");

-- AddForeignKey
ALTER TABLE "numbers"."service_provider" ADD CONSTRAINT "service_provider_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "numbers"."snapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "numbers"."number_range" ADD CONSTRAINT "number_range_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "numbers"."snapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "numbers"."ported_number" ADD CONSTRAINT "ported_number_snapshot_id_fkey" FOREIGN KEY ("snapshot_id") REFERENCES "numbers"."snapshot"("id") ON DELETE CASCADE ON UPDATE CASCADE;
