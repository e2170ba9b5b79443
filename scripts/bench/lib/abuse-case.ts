// What a bench:abuse case is: the player it plays as, what it prepares unwatched, and the hostile
// work the bystander watches. The cases themselves are in abuse-cases.ts and abuse-cases-cards.ts.
import type { Player } from './abuse-player';
import type { Timing } from './processes';

export interface CaseContext {
  player: Player;
  /** The fake provider's base URL (ending in /v1). */
  fakeBaseUrl: string;
  quick: boolean;
  /** A progress line (setup can take a while). */
  note(line: string): void;
}

/** The hostile work, watched by the bystander; answers the case's own figures. */
export type Hostile = () => Promise<string>;

export interface AbuseCase {
  name: string;
  /** What the player does, in one line (printed with the table). */
  what: string;
  /** Server settings this case needs on top of the benchmark's. */
  env?: Record<string, string>;
  /** The fake provider's timing for this case (default: instant, 150 words). */
  timing?: Partial<Timing>;
  prepare(ctx: CaseContext): Promise<Hostile>;
}
