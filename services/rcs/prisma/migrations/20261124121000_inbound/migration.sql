-- RBM pushes already handled (src/inbound): the push's Pub/Sub message id, so that a push RBM
-- delivers again is acknowledged without a second event.
CREATE TABLE "rcs"."rbm_pushes" (
    "push_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rbm_pushes_pkey" PRIMARY KEY ("push_id")
);

CREATE INDEX "rbm_pushes_received_at_idx" ON "rcs"."rbm_pushes"("received_at");

-- When a message was reported delivered and read (src/inbound): each outbound event once, whatever
-- order RBM's pushes arrive in.
ALTER TABLE "rcs"."messages" ADD COLUMN "delivered_at" TIMESTAMPTZ(3),
                             ADD COLUMN "read_at" TIMESTAMPTZ(3);

-- Users who unsubscribed from an agent (src/subscriptions): by RBM's UNSUBSCRIBE event or a stop
-- word. Sends from the agent to them are refused until they subscribe again (row deleted).
CREATE TABLE "rcs"."unsubscribed" (
    "agent_id" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "unsubscribed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "unsubscribed_pkey" PRIMARY KEY ("agent_id", "phone"),
    CONSTRAINT "unsubscribed_source_known" CHECK ("source" IN ('event', 'keyword'))
);

-- Testers of an agent (src/testers): invited through RBM; invite_status as RBM last answered it.
CREATE TABLE "rcs"."testers" (
    "agent_id" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "label" TEXT,
    "invite_status" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "testers_pkey" PRIMARY KEY ("agent_id", "phone_number"),
    CONSTRAINT "testers_agent_fkey" FOREIGN KEY ("agent_id") REFERENCES "rcs"."agents"("id") ON DELETE CASCADE
);
