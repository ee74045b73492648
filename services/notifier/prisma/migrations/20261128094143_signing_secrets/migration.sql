-- Each account's Standard Webhooks signing secrets, sealed with CALLBACK_SECRETS_KEY (AES-256-GCM):
-- the one that signs now and, during a rotation's grace period, the one it replaced.
-- CreateTable
CREATE TABLE "notifier"."signing_secret" (
    "account_id" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "previous_secret" TEXT,
    "previous_expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "signing_secret_pkey" PRIMARY KEY ("account_id"),
    CONSTRAINT "signing_secret_previous_check" CHECK (("previous_secret" IS NULL) = ("previous_expires_at" IS NULL))
);
