// Types for build-server.mjs, whose ranks export the tokenizer's test uses.
export function ranksJson(): Promise<string>;
