-- An agent's kind: RBM business messaging (what is built) or a conversational agent (501 for
-- every client operation until it is supported).
ALTER TABLE "rcs"."agents" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'business_messaging';
ALTER TABLE "rcs"."agents" ADD CONSTRAINT "agents_kind_known"
  CHECK ("kind" IN ('business_messaging', 'conversational'));

-- RBM capability answers (src/capability), shared by every client (spec 4.5 rule 2): one row per
-- (agent, phone), replaced by each check against RBM; fresh for 7 days when supported, 24 hours
-- when not (computed from checked_at at read time, so the rule lives in one place).
CREATE TABLE "rcs"."capabilities" (
    "agent_id" TEXT NOT NULL,
    "phone" TEXT NOT NULL,
    "rcs_supported" BOOLEAN NOT NULL,
    "features" TEXT[] NOT NULL,
    "checked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "capabilities_pkey" PRIMARY KEY ("agent_id", "phone")
);
