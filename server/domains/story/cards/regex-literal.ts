// A regular-expression key's required literal: a run of plain characters that every match of the
// pattern contains, found from the pattern's text. RE2 (re2js, pure JavaScript) takes about 17 µs
// to test a 3,000-character message, the plain substring search a few hundred nanoseconds: a turn
// tests every regex key on its new messages, so a key whose literal is not in a text is answered
// without running it. Conservative by construction: a pattern this cannot read surely (alternation
// at its top level, inline flags) has no literal, and is always run.

/** Characters taken literally into a run: letters, digits and the space, the same in every flag. */
const PLAIN = /^[A-Za-z0-9 ]$/;
/** Shorter literals rule out too little to be worth a search before the pattern. */
const LITERAL_MIN = 3;

export interface RequiredLiteral {
  /** The characters, lowercased when the pattern ignores case. */
  text: string;
  /** Whether to look for it in the lowercased text. */
  fold: boolean;
}

/**
 * The longest run of plain characters outside any group, class or repeat that every match must
 * contain, or null. Case-insensitive patterns keep no 's' (RE2 folds 'ſ' to it, which lowercasing
 * the text does not) and compare lowercased.
 */
export function requiredLiteral(pattern: string, ignoreCase: boolean): RequiredLiteral | null {
  if (pattern.includes('(?')) return null;
  let best = '';
  let run = '';
  let depth = 0;
  // Spaces are required characters too, but rule out little: runs are compared without them at the ends.
  const endRun = () => {
    if (run.trim().length > best.trim().length) best = run;
    run = '';
  };
  for (let at = 0; at < pattern.length; at++) {
    const char = pattern[at];
    const next = pattern[at + 1];
    if (char === '\\') {
      // An escape is a class, an anchor or one escaped character: none joins a run.
      endRun();
      at++;
      continue;
    }
    if (char === '[') {
      endRun();
      // A class ends at the first ']' after its first character (']' first is literal), escapes skipped.
      let end = at + 1;
      if (pattern[end] === '^') end++;
      if (pattern[end] === ']') end++;
      while (end < pattern.length && pattern[end] !== ']') end += pattern[end] === '\\' ? 2 : 1;
      at = end;
      continue;
    }
    if (char === '(') {
      endRun();
      depth++;
      continue;
    }
    if (char === ')') {
      endRun();
      depth--;
      continue;
    }
    if (char === '|') {
      // An alternative at the top level: a match need hold none of the runs before or after it.
      if (depth === 0) return null;
      endRun();
      continue;
    }
    const quantified = next === '?' || next === '*' || next === '{' || next === '+';
    if (depth > 0 || !PLAIN.test(char) || (ignoreCase && (char === 's' || char === 'S'))) {
      endRun();
      continue;
    }
    if (quantified && next !== '+') {
      // Optional, or repeated a counted number of times (perhaps none): not required.
      endRun();
      continue;
    }
    run += ignoreCase ? char.toLowerCase() : char;
    // Required once at least, but what follows it may be the same character again.
    if (next === '+') endRun();
  }
  endRun();
  return best.trim().length >= LITERAL_MIN ? { text: best, fold: ignoreCase } : null;
}
