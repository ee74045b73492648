-- Replies to reply-path messages (services/replypath/src/replies). A reply lives as long as its
-- message: removed with it when the validity period ends or a OneShot reply releases it (spec 8.2
-- "replies expire with the original message").
CREATE TABLE "replypath"."replies" (
    "id" UUID NOT NULL,
    "transaction_id" UUID NOT NULL,
    -- The recipient who answered, E.164.
    "from" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    -- The sms.inbound.v1 event it came in (dedupe is processed_event's; kept to trace it).
    "inbound_event_id" TEXT NOT NULL,
    -- The SMSC's id of the inbound SMS when it gave one: an SMS the SMSC resent is stored once.
    "smsc_message_id" TEXT,
    -- 'requested': a callbacks.v1 request (callback_id) was committed with the reply;
    -- 'no-callback': the account had no usable reply-path URL, stored only.
    "forward_state" TEXT NOT NULL,
    "callback_id" TEXT,

    CONSTRAINT "replies_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "replies_forward_state" CHECK ("forward_state" IN ('requested', 'no-callback')),
    CONSTRAINT "replies_transaction_id_fkey" FOREIGN KEY ("transaction_id")
        REFERENCES "replypath"."messages" ("transaction_id") ON DELETE CASCADE
);

CREATE INDEX "replies_transaction_id_idx" ON "replypath"."replies" ("transaction_id");

CREATE UNIQUE INDEX "replies_from_smsc_message_id_key" ON "replypath"."replies" ("from", "smsc_message_id")
    WHERE "smsc_message_id" IS NOT NULL;
