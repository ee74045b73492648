-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "replypath";

-- btree_gist gives text columns a GiST equality operator class, which the exclusion constraint on
-- "reservations" needs. It is a trusted extension (Postgres 13+): the database owner may create
-- it. Created in "public", not in this schema: an extension exists once per database and the
-- embedded default runs every service's schema in one database.
CREATE EXTENSION IF NOT EXISTS "btree_gist" WITH SCHEMA "public";

-- CreateTable
CREATE TABLE "replypath"."pool_numbers" (
    "number" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_allocated_at" TIMESTAMPTZ(3),

    CONSTRAINT "pool_numbers_pkey" PRIMARY KEY ("number")
);

-- CreateTable
CREATE TABLE "replypath"."reservations" (
    "id" UUID NOT NULL,
    "number" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "transaction_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "one_shot" BOOLEAN NOT NULL,
    "dlr" BOOLEAN NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "quarantine_until" TIMESTAMPTZ(3) NOT NULL,
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "reservations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "replypath"."messages" (
    "transaction_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "number" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "parts" INTEGER NOT NULL,
    "encoding" TEXT NOT NULL,
    "dlr" BOOLEAN NOT NULL,
    "one_shot" BOOLEAN NOT NULL,
    "vp" INTEGER NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'accepted',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("transaction_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "reservations_transaction_id_key" ON "replypath"."reservations"("transaction_id");

-- CreateIndex
CREATE INDEX "reservations_recipient_number_quarantine_until_idx" ON "replypath"."reservations"("recipient", "number", "quarantine_until");

-- CreateIndex
CREATE INDEX "reservations_quarantine_until_idx" ON "replypath"."reservations"("quarantine_until");

-- CreateIndex
CREATE INDEX "messages_expires_at_idx" ON "replypath"."messages"("expires_at");

-- Not in schema.prisma (it has no syntax for them): the order of a reservation's moments, and the
-- rule that one (recipient, number) pair is never reserved twice at once, its quarantine included.
-- The exclusion constraint is what makes allocation safe across replicas: a second reservation of
-- a pair that is still active or quarantined cannot commit (SQLSTATE 23P01).
ALTER TABLE "replypath"."reservations"
    ADD CONSTRAINT "reservations_moments_ordered"
        CHECK ("starts_at" <= "ends_at" AND "ends_at" <= "quarantine_until"),
    ADD CONSTRAINT "reservations_pair_not_overlapping"
        EXCLUDE USING gist ("recipient" WITH =, "number" WITH =, tstzrange("starts_at", "quarantine_until") WITH &&);

ALTER TABLE "replypath"."messages"
    ADD CONSTRAINT "messages_vp_bounds" CHECK ("vp" BETWEEN 0 AND 4320),
    ADD CONSTRAINT "messages_parts_bounds" CHECK ("parts" BETWEEN 1 AND 10);
