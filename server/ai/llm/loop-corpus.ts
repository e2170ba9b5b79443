// Seeded transcripts for the loop detector's tests and bench:loop: five earlier narrator replies of
// varied prose (server/test/varied-prose.ts, what the fake providers write) and a new reply, which
// either loops the ways models loop or does not. Deterministic: the same count gives the same corpus.
import { proseWriter, seededRandom } from '@server/test/varied-prose';

export interface LoopTranscript {
  /** The story's last narrator replies, newest first. */
  history: string[];
  reply: string;
}

export const LOOP_KINDS = ['retold reply', 'repeated opening', 'back-to-back cycle', 'sentence said again'] as const;
export const VARIED_KINDS = ['varied reply', 'reply with a recurring name and place', 'long varied reply'] as const;
export type LoopKind = (typeof LOOP_KINDS)[number];
export type VariedKind = (typeof VARIED_KINDS)[number];

const sentencesOf = (reply: string) => reply.split(/(?<=[.?!])\s+/);
const CLOSING = 'What do you do?';
/** A reply's sentences before its closing question. */
const bodyOf = (reply: string) => sentencesOf(reply).filter((s) => s !== CLOSING);

/** The name and place a story keeps coming back to, said in new sentences each time. */
const RECURRING = [
  'Captain Ilsa Marr of the harbour watch',
  'the lighthouse at Greywater Point',
  'Captain Ilsa Marr',
  'Greywater Point',
];

function transcript(seed: number, sentences?: number) {
  const writer = proseWriter(seed);
  const random = seededRandom(seed * 7919);
  const history = Array.from({ length: 5 }, () => writer.reply(sentences));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  return { writer, random, history, pick };
}

function loopingReply(kind: LoopKind, seed: number): LoopTranscript {
  const { writer, random, history, pick } = transcript(seed);
  const fresh = bodyOf(writer.reply());
  switch (kind) {
    case 'retold reply': {
      // An earlier reply told again, one of its sentences swapped for a new one.
      const told = bodyOf(pick(history));
      told[Math.floor(random() * told.length)] = fresh[0];
      return { history, reply: [...told, CLOSING].join(' ') };
    }
    case 'repeated opening': {
      // The same first sentence as an earlier reply, the rest new.
      const opening = sentencesOf(pick(history))[0];
      return { history, reply: [opening, ...fresh, CLOSING].join(' ') };
    }
    case 'back-to-back cycle': {
      // A sentence, a phrase or a word said 3 to 20 times in a row inside a new reply.
      const at = 1 + Math.floor(random() * (fresh.length - 1));
      const shape = Math.floor(random() * 3);
      const said =
        shape === 0
          ? Array.from({ length: 3 + Math.floor(random() * 3) }, () => fresh[at]).join(' ')
          : shape === 1
            ? `${fresh[at].replace(/[.?!]$/, '')}, ${Array.from({ length: 3 + Math.floor(random() * 3) }, () => 'and the rain keeps falling').join(', ')}.`
            : `${fresh[at].replace(/[.?!]$/, '')} ${Array.from({ length: 12 + Math.floor(random() * 9) }, () =>
                pick(['let', 'the', 'and', 'you']),
              )
                .fill(pick(['let', 'you', 'the']))
                .join(' ')}.`;
      return { history, reply: [...fresh.slice(0, at), said, ...fresh.slice(at + 1), CLOSING].join(' ') };
    }
    case 'sentence said again': {
      // One sentence of the reply said three times, apart.
      const line = fresh[0];
      const body = [line, ...fresh.slice(1, 3), line, ...fresh.slice(3), line];
      return { history, reply: [...body, CLOSING].join(' ') };
    }
  }
}

function variedReply(kind: VariedKind, seed: number): LoopTranscript {
  switch (kind) {
    case 'varied reply': {
      const { writer, history } = transcript(seed);
      return { history, reply: writer.reply() };
    }
    case 'reply with a recurring name and place': {
      // Every reply names the captain and the lighthouse, in its own sentence, and one cries out.
      const { writer, history, pick } = transcript(seed);
      const withNames = (reply: string) => {
        const body = bodyOf(reply);
        body.splice(1, 0, `${pick(RECURRING)} comes to mind as ${body[0][0].toLowerCase()}${body[0].slice(1)}`);
        body.push(`"No, no, no!" someone shouts near ${pick(RECURRING)}.`);
        return [...body, CLOSING].join(' ');
      };
      return { history: history.map(withNames), reply: withNames(writer.reply()) };
    }
    case 'long varied reply': {
      // Replies of about 500 words (40 sentences), where the fake's sentence shapes recur most.
      const { writer, history } = transcript(seed, 40);
      return { history, reply: writer.reply(40) };
    }
  }
}

/** `count` transcripts of each looping and each varied kind. */
export function loopCorpus(count: number): {
  looping: Record<LoopKind, LoopTranscript[]>;
  varied: Record<VariedKind, LoopTranscript[]>;
} {
  const seeds = Array.from({ length: count }, (_, i) => i + 1);
  return {
    looping: Object.fromEntries(LOOP_KINDS.map((k) => [k, seeds.map((s) => loopingReply(k, s))])) as Record<
      LoopKind,
      LoopTranscript[]
    >,
    varied: Object.fromEntries(VARIED_KINDS.map((k) => [k, seeds.map((s) => variedReply(k, s))])) as Record<
      VariedKind,
      LoopTranscript[]
    >,
  };
}
