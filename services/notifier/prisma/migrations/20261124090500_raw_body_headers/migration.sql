-- A requester may give the POST body as raw text (sent byte for byte, e.g. because it signed it)
-- and extra x-... headers (e.g. its own X-Webhook-Signature): callbacks.v1 bodyText and headers.
ALTER TABLE "notifier"."callback" ADD COLUMN "body_text" TEXT;
ALTER TABLE "notifier"."callback" ADD COLUMN "headers" JSONB;
-- callbacks.v1 retryEveryFailure: any non-2xx answer is retried (RCS webhooks, spec 6.3).
ALTER TABLE "notifier"."callback" ADD COLUMN "retry_every_failure" BOOLEAN NOT NULL DEFAULT false;
