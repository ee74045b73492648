-- The opt-out replica of @msg/optout, in the service's own schema: migrate() runs this with
-- search_path set to that schema, so the names are unqualified. One row per (account, recipient)
-- that ever changed: opted_out false rows stay, so a late, older event cannot undo a newer one
-- (last writer wins on changed_at). Lookups read the primary key.

-- CreateTable
CREATE TABLE IF NOT EXISTS "opt_out" (
    "account_id" TEXT NOT NULL,
    "msisdn" TEXT NOT NULL,
    "opted_out" BOOLEAN NOT NULL,
    "keyword" TEXT,
    "source" TEXT NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "opt_out_pkey" PRIMARY KEY ("account_id", "msisdn")
);
