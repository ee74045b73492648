-- The operator's protected sender names (issue 23): no account sends SMS as one, or as a
-- look-alike, unless it is registered to the account. name_key is lookalikeKey(name) of
-- @msg/sms-text, so look-alikes are one entry. The whole list is published on
-- senders.protected.v1 at every change.
-- CreateTable
CREATE TABLE "admin"."protected_sender" (
    "name_key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "protected_sender_pkey" PRIMARY KEY ("name_key")
);

-- One row: the list's version. A change updates it first, so changes take turns on its row lock
-- and each publishes a higher version (by hand: Prisma has no syntax for the CHECK).
-- CreateTable
CREATE TABLE "admin"."protected_sender_list" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "version" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "protected_sender_list_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "protected_sender_list_one_row" CHECK ("id" = 1)
);

INSERT INTO "admin"."protected_sender_list" ("id") VALUES (1);
