// How the admin's figures price a cell of the ledger's rollups: a narrator's calls (turns, the loop
// guard's second calls, summaries, titles, style sheets) at that narrator's prices, everything else
// (pictures at the image rate, embeddings) at the default narrator's, as before the catalogue. A
// narrator that left the catalogue keeps its id in the figures and is priced as the default: its
// prices left with it. Rows from before the catalogue are `default`.
import type { NarratorCatalogue } from '@server/kernel/config';
import type { Prices } from '@server/kernel/config/prices';
import { NARRATOR_CALL_KINDS } from '@shared/schemas/narrators';

export interface NarratorPricing {
  /** The prices of a rollup cell's tokens. */
  pricesOf(cell: { narrator: string; kind: string }): Prices;
  /** Whether a kind of call is one a narrator makes (and so counts in that narrator's figures). */
  isNarratorCall(kind: string): boolean;
  /** The catalogue's narrators in its order, ids and labels (the admin's by-narrator rows). */
  narrators: readonly { id: string; label: string }[];
}

export function narratorPricing(catalogue: NarratorCatalogue): NarratorPricing {
  const byId = new Map(catalogue.narrators.map((narrator) => [narrator.id, narrator]));
  // Start-up checked that the default is one of them.
  const fallback = (byId.get(catalogue.defaultId) ?? catalogue.narrators[0]!).llm.prices;
  const isNarratorCall = (kind: string) => NARRATOR_CALL_KINDS.includes(kind);
  return {
    pricesOf: ({ narrator, kind }) => (isNarratorCall(kind) && byId.get(narrator)?.llm.prices) || fallback,
    isNarratorCall,
    narrators: catalogue.narrators.map(({ id, label }) => ({ id, label })),
  };
}
