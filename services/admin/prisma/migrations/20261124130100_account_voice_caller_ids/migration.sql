-- Text-to-voice caller IDs registered for the account and its default voice caller ID (spec 2.6).
ALTER TABLE "admin"."account" ADD COLUMN     "voice_caller_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "voice_default_sender" TEXT;
