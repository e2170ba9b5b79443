// Admin dashboard shapes: provider usage totals and the users table.
import { z } from 'zod';
import { userSchema } from './user';

export const ADMIN_MESSAGES = { adminRequired: 'Admin access required', userNotFound: 'User not found' } as const;

export const tokenTotalsSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  image: z.number().int().nonnegative(),
});
export type TokenTotals = z.infer<typeof tokenTotalsSchema>;

/** The same figures as US dollars, priced by the server (LLM_PRICE_*; cached input at its own price). */
export const costTotalsSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  image: z.number().nonnegative(),
  total: z.number().nonnegative(),
});
export type CostTotals = z.infer<typeof costTotalsSchema>;

/** A users-table row's (or its footer's) figures as US dollars: text, image, both, and this month. */
export const userCostsSchema = z.object({
  text: z.number().nonnegative(),
  image: z.number().nonnegative(),
  total: z.number().nonnegative(),
  thisMonth: z.number().nonnegative(),
});
export type UserCosts = z.infer<typeof userCostsSchema>;

/** A narrator's text tokens over a period and what they cost at its prices. */
const narratorPeriodSchema = z.object({
  input: z.number().int().nonnegative(),
  /** The part of `input` read from a prompt cache. */
  cachedInput: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  cost: z.number().nonnegative(),
});

/** One narrator of the catalogue (or one the ledger still names after it left) and what its calls used. */
export const narratorUsageSchema = z.object({
  id: z.string(),
  /** The catalogue's label; a narrator that left the catalogue is shown by its id. */
  label: z.string(),
  /** False for a narrator the ledger still names after it left the catalogue. */
  inCatalogue: z.boolean(),
  total: narratorPeriodSchema,
  thisMonth: narratorPeriodSchema,
  /** Its share of the narrators' tokens this month, from 0 to 1 (0 while none were used). */
  monthShare: z.number().min(0).max(1),
});
export type NarratorUsage = z.infer<typeof narratorUsageSchema>;

export const apiUsageResponseSchema = z.object({
  /** What the usage card shows as the provider, e.g. "Offline demo narrator" or "OpenAI-compatible (gpt-4o-mini)". */
  provider: z.string(),
  providerId: z.enum(['builtin', 'openai', 'anthropic']),
  model: z.string(),
  /** Shown on the card while the offline demo narrator answers: how to connect a real model. */
  notice: z.string().nullable(),
  total: tokenTotalsSchema,
  thisMonth: tokenTotalsSchema,
  /** `total` and `thisMonth` as estimated costs. */
  costs: z.object({ total: costTotalsSchema, thisMonth: costTotalsSchema }),
  /** What the costs are priced at: US dollars per million tokens (LLM_PRICE_*, the spec's image rate). */
  prices: z.object({
    inputPerMillion: z.number().nonnegative(),
    cachedInputPerMillion: z.number().nonnegative(),
    outputPerMillion: z.number().nonnegative(),
    imagePerMillion: z.number().nonnegative(),
  }),
  /** The painter, named the same way (image tokens come from it); its notice is set while the offline demo painter draws. */
  imageProvider: z.object({
    provider: z.string(),
    providerId: z.enum(['builtin', 'openai', 'automatic1111', 'none']),
    model: z.string(),
    notice: z.string().nullable(),
  }),
  /** The narrators' calls (turns, summaries, titles, style sheets) per narrator, each priced with its own prices. */
  byNarrator: z.array(narratorUsageSchema),
});
export type ApiUsageResponse = z.infer<typeof apiUsageResponseSchema>;

/** Columns the users table sorts by (each cycles ascending, descending, off). */
export const ADMIN_USER_SORT_FIELDS = [
  'username',
  'email',
  'createdAt',
  'lastActive',
  'stories',
  'turns',
  'textTokens',
  'imageTokens',
  'total',
  'thisMonth',
] as const;
export type AdminUserSortField = (typeof ADMIN_USER_SORT_FIELDS)[number];
export const ADMIN_SORT_ORDERS = ['asc', 'desc'] as const;
export type AdminSortOrder = (typeof ADMIN_SORT_ORDERS)[number];
/** 'All Users' and 'This Month' (users who spent tokens this month). */
export const ADMIN_USER_TABS = ['all', 'month'] as const;
export type AdminUserTab = (typeof ADMIN_USER_TABS)[number];
export const ADMIN_PAGE_SIZE_DEFAULT = 50;
export const ADMIN_PAGE_SIZE_MAX = 200;
export const ADMIN_SEARCH_MAX_LENGTH = 100;

/**
 * GET /api/admin/users query: every parameter is optional, so the bare call the spec names answers
 * the first page of all users, in id order. Search, sort and paging happen on the server.
 */
export const ADMIN_QUERY_MESSAGES = {
  tab: 'Tab must be "all" or "month"',
  search: `Search must be at most ${ADMIN_SEARCH_MAX_LENGTH} characters`,
  searchInvalid: 'Search must be a single text',
  sort: `Sort must be one of: ${ADMIN_USER_SORT_FIELDS.join(', ')}`,
  order: 'Order must be "asc" or "desc"',
  page: 'Page must be a whole number from 1',
  pageSize: `Page size must be a whole number from 1 to ${ADMIN_PAGE_SIZE_MAX}`,
  days: 'Days must be 30 or 90',
  userId: 'User id must be a number',
} as const;

const wholeNumber = (message: string, max: number) =>
  z
    .string({ error: message })
    .regex(/^\d{1,7}$/, message)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, message);

export const adminUsersQuerySchema = z.object({
  tab: z.enum(ADMIN_USER_TABS, { error: ADMIN_QUERY_MESSAGES.tab }).default('all'),
  /** Part of a username or email, case-insensitive. */
  q: z
    .string({ error: ADMIN_QUERY_MESSAGES.searchInvalid })
    .trim()
    .max(ADMIN_SEARCH_MAX_LENGTH, ADMIN_QUERY_MESSAGES.search)
    .optional(),
  sort: z.enum(ADMIN_USER_SORT_FIELDS, { error: ADMIN_QUERY_MESSAGES.sort }).optional(),
  order: z.enum(ADMIN_SORT_ORDERS, { error: ADMIN_QUERY_MESSAGES.order }).default('asc'),
  page: wholeNumber(ADMIN_QUERY_MESSAGES.page, 1_000_000).default(1),
  pageSize: wholeNumber(ADMIN_QUERY_MESSAGES.pageSize, ADMIN_PAGE_SIZE_MAX).default(ADMIN_PAGE_SIZE_DEFAULT),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

/** A users-table row: the User entity plus what an operator reads beside it. */
export const adminUserSchema = userSchema.extend({
  /** Stories the user has now. */
  stories: z.number().int().nonnegative(),
  /** Narrator replies written for the user (openings and retries included), from the usage ledger. */
  turns: z.number().int().nonnegative(),
  /** The image part of tokenUsage.thisMonth (the rest is text). */
  monthImageTokens: z.number().int().nonnegative(),
  costs: userCostsSchema,
});
export type AdminUser = z.infer<typeof adminUserSchema>;

/** Sums over every user the tab and search match (not only the page shown): the table's footer. */
export const adminUserTotalsSchema = z.object({
  stories: z.number().int().nonnegative(),
  turns: z.number().int().nonnegative(),
  textTokens: z.number().int().nonnegative(),
  imageTokens: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  thisMonth: z.number().int().nonnegative(),
  monthImageTokens: z.number().int().nonnegative(),
  costs: userCostsSchema,
});
export type AdminUserTotals = z.infer<typeof adminUserTotalsSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserSchema),
  metadata: z.object({
    totalUsers: z.number().int().nonnegative(),
    /** The calendar month (UTC) "this month" figures cover, as YYYY-MM. */
    currentMonth: z.string(),
    /** Every user's tokens this month: the base of each row's month share. */
    monthTokens: z.number().int().nonnegative(),
    /** Users the tab and search match, across all pages. */
    matchingUsers: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
    totals: adminUserTotalsSchema,
  }),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

/** Token kinds the usage chart stacks; speech and transcription count characters, not tokens. */
export const TOKEN_USAGE_KINDS = ['turn', 'retry-loop', 'summary', 'title', 'image', 'style', 'embedding'] as const;
export type TokenUsageKind = (typeof TOKEN_USAGE_KINDS)[number];
export const USAGE_PERIODS = [30, 90] as const;

export const usageHistoryQuerySchema = z.object({
  days: z.enum(['30', '90'], { error: ADMIN_QUERY_MESSAGES.days }).transform(Number).default(30),
});

export const adminUserParamsSchema = z.object({
  userId: z
    .string()
    .regex(/^\d{1,15}$/, ADMIN_QUERY_MESSAGES.userId)
    .transform(Number),
});

const tokenCount = z.number().int().nonnegative();

/** Calls, tokens and characters of a period (a provider and model's, a user's month) and their estimated cost. */
export const usageSumsSchema = tokenTotalsSchema.extend({
  calls: z.number().int().nonnegative(),
  /** Speech and transcription calls: characters spoken or transcribed. */
  characters: tokenCount,
  /** Estimated US dollars (the product's per-token costs). */
  cost: z.number().nonnegative(),
});
export type UsageSumsWithCost = z.infer<typeof usageSumsSchema>;

/** GET /api/admin/usage/history: daily tokens by kind with their estimated cost, and the period by provider and model. */
export const usageHistoryResponseSchema = z.object({
  days: z.number().int().positive(),
  /** Inclusive UTC dates, YYYY-MM-DD. */
  from: z.string(),
  to: z.string(),
  /** One entry per day of the period, oldest first, days without calls included as zeros. */
  daily: z.array(
    z.object({
      day: z.string(),
      turn: tokenCount,
      /** The loop guard's second calls (a reply that repeated the story, asked again). */
      'retry-loop': tokenCount,
      summary: tokenCount,
      title: tokenCount,
      image: tokenCount,
      style: tokenCount,
      /** The memory bank's embeddings (EMBEDDINGS_PROVIDER). */
      embedding: tokenCount,
      /** Estimated US dollars (the product's per-token costs). */
      cost: z.number().nonnegative(),
    }),
  ),
  /** The period's calls by provider and model, largest cost first. */
  byModel: z.array(usageSumsSchema.extend({ provider: z.string(), model: z.string() })),
});
export type UsageHistoryResponse = z.infer<typeof usageHistoryResponseSchema>;

/** GET /api/admin/users/{id}/usage: one user's usage month by month, newest first. */
export const userUsageResponseSchema = z.object({
  user: z.object({ id: z.number().int().positive(), username: z.string() }),
  months: z.array(
    usageSumsSchema.extend({
      /** YYYY-MM (UTC). */
      month: z.string(),
    }),
  ),
});
export type UserUsageResponse = z.infer<typeof userUsageResponseSchema>;
