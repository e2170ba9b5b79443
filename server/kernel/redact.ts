// Secrets kept out of logs and answers: a provider's error detail (which may echo the request)
// passes through here before anything writes it down.

/** `text` with every non-empty secret replaced by [redacted]. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let clean = text;
  for (const secret of secrets) if (secret) clean = clean.split(secret).join('[redacted]');
  return clean;
}
