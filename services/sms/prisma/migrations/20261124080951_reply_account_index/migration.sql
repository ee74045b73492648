-- CreateIndex
CREATE INDEX "message_recipient_sender_created_at_idx" ON "sms"."message"("recipient", "sender", "created_at");
