ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_expiry_by_kind";--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_expiry_by_kind" CHECK (("api_keys"."kind" = 'sandbox' AND "api_keys"."expires_at" IS NOT NULL AND "api_keys"."expires_at" = "api_keys"."created_at" + interval '672 hours')
        OR ("api_keys"."kind" = 'production' AND "api_keys"."expires_at" IS NULL));