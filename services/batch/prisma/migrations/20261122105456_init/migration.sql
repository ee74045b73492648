-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "batch";
