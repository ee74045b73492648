-- A requester may give the POST body as raw text (sent byte for byte, e.g. because it signed it)
-- and extra x-... headers (e.g. its own X-Webhook-Signature): callbacks.v1 bodyText and headers.
ALTER TABLE "notifier"."callback" ADD COLUMN "body_text" TEXT;
ALTER TABLE "notifier"."callback" ADD COLUMN "headers" JSONB;
