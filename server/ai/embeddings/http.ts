// The HTTP the embeddings adapters share: the rules of ../provider-http.ts (the picture and speech
// providers' too) bound to EmbeddingsError: one deadline per call, capped answers, keys never in a
// detail.
import { providerHttp } from '../provider-http';
import { EmbeddingsError } from './types';

// An unfollowed 3xx means the base URL points somewhere that is not the embeddings API.
export const { fail, postJson } = providerHttp(EmbeddingsError, { unfollowedRedirect: 'misconfigured' });
export { bearer, isRecord, startCall, type CallContext } from '../provider-http';
