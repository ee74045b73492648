-- Per-account request rates shared by every replica of a service (@msg/auth,
-- createPostgresRateLimiter). One row per bucket key ("<permission>:<account id>"); a replica
-- leases a slice of it at a time. `granted` only carries the last lease back to RETURNING.
CREATE TABLE "rate_limit_bucket" (
    "key" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "granted" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "rate_limit_bucket_pkey" PRIMARY KEY ("key")
);
