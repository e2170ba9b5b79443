// Types for serve-command.mjs, which plain-node scripts (the e2e launcher) import too.
export function serverArgv(dir?: string, options?: { build?: boolean }): string[];
