// The one refusal an import makes: the file as a whole is not a lorebook Taleweaver reads. Its
// message is shown to the player as it is, so it names the format it saw and what was wrong.
export class CardFileError extends Error {
  override name = 'CardFileError';
}
