-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "voice";

-- A text-to-voice message (spec 2.6, 3.4): what to say, to whom, from which caller ID, and its
-- outcome once its final attempt ended. `markup`: the legacy interface's Msg (its <break> and
-- <prosody> are honoured); REST messages have none (their markup is read as text).
CREATE TABLE "voice"."messages" (
    "transaction_id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "caller_id" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "markup" TEXT,
    "language" TEXT NOT NULL,
    "gender" TEXT NOT NULL,
    "instructions" TEXT,
    "machine_detection" BOOLEAN NOT NULL DEFAULT false,
    "play_count" INTEGER NOT NULL,
    "client_reference" TEXT,
    "status" TEXT NOT NULL DEFAULT 'accepted',
    "failure_code" INTEGER,
    "duration_seconds" INTEGER,
    "listened_seconds" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "messages_pkey" PRIMARY KEY ("transaction_id"),
    CONSTRAINT "messages_status_known" CHECK ("status" IN ('accepted', 'completed', 'failed'))
);

-- The status query is per account.
CREATE INDEX "messages_account_id_idx" ON "voice"."messages"("account_id");

-- One call attempt (1..3). Due attempts without an outcome are claimed with FOR UPDATE SKIP
-- LOCKED; `lease_until` lets another worker retake an attempt whose worker died.
CREATE TABLE "voice"."attempts" (
    "transaction_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_by" TEXT,
    "lease_until" TIMESTAMPTZ(3),
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "outcome" TEXT,
    "sip_status" INTEGER,

    CONSTRAINT "attempts_pkey" PRIMARY KEY ("transaction_id", "number"),
    CONSTRAINT "attempts_message_fkey" FOREIGN KEY ("transaction_id") REFERENCES "voice"."messages"("transaction_id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The scheduler's look: attempts in due order (open ones are the few recent ones).
CREATE INDEX "attempts_due_at_idx" ON "voice"."attempts"("due_at");
