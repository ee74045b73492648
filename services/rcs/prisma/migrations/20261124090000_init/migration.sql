-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "rcs";

-- An RBM agent the operator registered (src/agents). `credentials` is the agent's RBM
-- service-account JSON sealed with RCS_CREDENTIALS_KEY (@msg/auth createSecretBox), never clear.
CREATE TABLE "rcs"."agents" (
    "id" TEXT NOT NULL,
    "display_name" TEXT NOT NULL,
    "credentials" TEXT,
    "use_case" TEXT NOT NULL,
    "launched" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "agents_use_case_known" CHECK ("use_case" IN ('AUTHENTICATION', 'TRANSACTION',
      'PROMOTION', 'SERVICEREQUEST', 'ACKNOWLEDGEMENT', 'MESSAGE_TRAFFIC_TYPE_UNSPECIFIED'))
);

-- Which accounts may send as an agent.
CREATE TABLE "rcs"."agent_accounts" (
    "agent_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,

    CONSTRAINT "agent_accounts_pkey" PRIMARY KEY ("agent_id", "account_id"),
    CONSTRAINT "agent_accounts_agent_fkey" FOREIGN KEY ("agent_id") REFERENCES "rcs"."agents"("id") ON DELETE CASCADE
);

-- A message accepted by POST /rcs/v1/messages; the delivery worker reads rcs.outbound.v1.
CREATE TABLE "rcs"."messages" (
    "id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "client_message_id" TEXT,
    "traffic_type" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "dry_run" BOOLEAN NOT NULL,
    "state" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "messages_agent_recipient_idx" ON "rcs"."messages"("agent_id", "recipient");
CREATE INDEX "messages_created_at_idx" ON "rcs"."messages"("created_at");
