// Prompt composition shared by the client and the server.
export * from './genre-mix';
