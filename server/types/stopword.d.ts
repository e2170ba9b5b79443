// stopword 3 ships no types; Taleweaver reads only its English list (memory/terms.ts).
declare module 'stopword' {
  export const eng: string[];
}
