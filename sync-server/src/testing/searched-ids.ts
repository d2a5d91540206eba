// The ids of the articles a search finds, best first, read out of the cards the search answers: for the
// tests of search's ranking, scope and parity between the engines.
import type { Queryable } from '../db/connection';
import { searchArticleCards } from '../services/articles';

export async function searchedIds(db: Queryable, userId: string, query: string): Promise<string[]> {
  const cards = await searchArticleCards(db, userId, query);
  return cards.map((card) => (JSON.parse(card.toString('utf8')) as { id: string }).id);
}
