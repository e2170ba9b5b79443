// Prompt composition shared by the client and the server (spec section 5).
export * from './genre-mix';
