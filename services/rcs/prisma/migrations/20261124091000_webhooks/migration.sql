-- Webhook configurations of agents (spec 2.5, 4.5 rules 3-7; src/webhooks). `secret` is the
-- 64-hex signing secret sealed with RCS_CREDENTIALS_KEY (@msg/auth createSecretBox), never clear.
-- `enabled_events` is stored in the first vocabulary of rule 5 (src/webhooks/event-vocabulary.ts).
CREATE TABLE "rcs"."webhooks" (
    "id" UUID NOT NULL,
    "agent_id" TEXT NOT NULL,
    "webhook_url" TEXT NOT NULL,
    "description" TEXT,
    "enabled_events" TEXT[] NOT NULL DEFAULT ARRAY['*']::TEXT[],
    "is_enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- Rule 4: one registration of a URL per agent (409).
CREATE UNIQUE INDEX "webhooks_agent_url_key" ON "rcs"."webhooks"("agent_id", "webhook_url");
