-- CreateTable
CREATE TABLE "replypath"."replies" (
    "id" UUID NOT NULL,
    "transaction_id" UUID NOT NULL,
    "from" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "inbound_event_id" TEXT NOT NULL,
    "smsc_message_id" TEXT,
    "forward_state" TEXT NOT NULL,
    "callback_id" TEXT,

    CONSTRAINT "replies_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "replies_transaction_id_idx" ON "replypath"."replies"("transaction_id");

-- CreateIndex
CREATE UNIQUE INDEX "replies_from_smsc_message_id_key" ON "replypath"."replies"("from", "smsc_message_id");

-- AddForeignKey
ALTER TABLE "replypath"."replies" ADD CONSTRAINT "replies_transaction_id_fkey" FOREIGN KEY ("transaction_id") REFERENCES "replypath"."messages"("transaction_id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Not in schema.prisma (it has no syntax for it): the two forward states of a reply.
ALTER TABLE "replypath"."replies"
    ADD CONSTRAINT "replies_forward_state" CHECK ("forward_state" IN ('requested', 'no-callback'));
