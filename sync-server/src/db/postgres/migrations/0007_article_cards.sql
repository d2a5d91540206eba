-- Each article's card (its GET's JSON less the body), written with every change the feed records for the
-- article, so a new device's pages of cards read it as it is (services/sync.ts). Articles saved before it
-- have none until their next change: their cards are built from the article's columns as before (issue 16).
CREATE TABLE "article_cards" (
	"article_id" text PRIMARY KEY NOT NULL,
	"card" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "article_cards" ADD CONSTRAINT "article_cards_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;