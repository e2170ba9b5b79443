// Public door of the genre decision: one reading of a premise's genre (with weights) for every
// server/ai consumer — the offline narrator, titles, the visual style sheet and the art style.
export { classifyGenre, DEFAULT_GENRE, GENRE_READ_LIMIT, type GenreReading, type GenreWeight } from './classify';
