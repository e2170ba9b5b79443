// A refusal of an operator's command: its message is the one readable line the command prints
// before exiting with 1 (no stack trace; nothing was changed unless the message says so).
export class OpsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpsError';
  }
}
