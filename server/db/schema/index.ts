// The one Drizzle pg-core schema, a file per domain. The same tables and migrations run on embedded
// PGlite and on PostgreSQL; drizzle-kit generates server/db/migrations from this folder.
export * from './accounts';
export * from './bookmarks';
export * from './cards';
export * from './images';
export * from './preferences';
export * from './sharing';
export * from './speech';
export * from './stories';
export * from './usage';
export * from './memory';
export * from './bible';
export * from './scenarios';
