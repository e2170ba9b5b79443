// The admin dashboard as an operator uses it: players with real usage (stories told by the builtin
// narrator, so the usage ledger has rows), the admin's welcome toast, then on /admin the cost
// switch, the usage chart, tabs, search, sort, a user's monthly usage, the CSV download, and an
// accessibility scan of the loaded dashboard in both themes.
// The admin is 'e2eboss' (e2e/support/e2e-server.mjs lists it in ADMIN_USERNAMES); shell.spec.ts has
// 'e2eadmin', so the two never clash on the shared database.
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ADMIN_STRINGS } from '../client/features/admin/strings';
import { APP_STRINGS } from '../client/app/strings';
import { AUTH_STRINGS } from '../client/features/auth/strings';
import { answerFor, loginThroughUi, registerThroughUi, uniqueUser } from './helpers';

const WRITE_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

/** Registers a player through the API (captcha solved like the form does) and answers its session. */
async function registerPlayer(api: APIRequestContext, username: string): Promise<void> {
  const captcha = (await (await api.get('/api/captcha')).json()) as { question: string };
  const response = await api.post('/api/register', {
    headers: WRITE_HEADERS,
    data: {
      username,
      email: `${username}@example.com`,
      password: 'story-time-42',
      captchaAnswer: answerFor(captcha.question),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/**
 * A story opened by the builtin narrator, and `turns` more replies, written by `narrator` when one is
 * named: each one a row in the usage ledger.
 */
async function playStory(api: APIRequestContext, turns: number, narrator?: string): Promise<void> {
  const start = await api.post('/api/story/start', {
    headers: WRITE_HEADERS,
    data: { prompt: 'A lighthouse keeper finds a map in a bottle' },
  });
  expect(start.ok(), await start.text()).toBe(true);
  const { storyId } = (await start.json()) as { storyId: number };
  if (narrator) {
    const picked = await api.patch(`/api/story/${storyId}/settings`, { headers: WRITE_HEADERS, data: { narrator } });
    expect(picked.ok(), await picked.text()).toBe(true);
  }
  for (let turn = 0; turn < turns; turn += 1) {
    const reply = await api.post(`/api/story/${storyId}/continue`, {
      headers: WRITE_HEADERS,
      data: { message: 'I follow the map north' },
    });
    expect(reply.ok(), await reply.text()).toBe(true);
  }
}

function usersTable(page: Page): Locator {
  return page.getByRole('table', { name: /not only this page/ });
}

async function visibleUsernames(page: Page): Promise<string[]> {
  return usersTable(page).locator('tbody tr td:first-child button').allTextContents();
}

/** The Total column's figures, in row order (the first line of each cell is the token count). */
async function visibleTotals(page: Page): Promise<number[]> {
  const headers = await usersTable(page).locator('thead th').allTextContents();
  const column = headers.findIndex((text) => text.trim() === ADMIN_STRINGS.columns.total) + 1;
  const cells = await usersTable(page).locator(`tbody tr td:nth-child(${column})`).allInnerTexts();
  return cells.map((text) => Number(text.split('\n')[0].replace(/,/g, '')));
}

async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function openDashboard(page: Page) {
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: ADMIN_STRINGS.pageTitle })).toBeVisible();
  await expect(page.getByText(ADMIN_STRINGS.totalTokens)).toBeVisible();
  await expect(page.getByRole('img', { name: /Stacked bar chart of daily tokens/ }).locator('canvas')).toBeVisible();
  await expect(usersTable(page)).toBeVisible();
}

test('an admin reads usage and costs, finds, sorts and inspects players, and downloads the user data', async ({
  page,
  playwright,
  baseURL,
}) => {
  // Three registrations, four narrated replies, a UI login and three axe scans on a 2-core machine.
  test.setTimeout(180_000);
  const prefix = uniqueUser('adm').username;
  const [busy, casual, idle] = [`${prefix}busy`, `${prefix}casual`, `${prefix}idle`];
  for (const [username, turns] of [
    [busy, 2],
    [casual, 0],
    [idle, -1],
  ] as const) {
    const api = await playwright.request.newContext({ baseURL });
    await registerPlayer(api, username);
    // The busy player's turns are written by the second narrator, so both have costs.
    if (turns >= 0) await playStory(api, turns, username === busy ? 'long-memory' : undefined);
    await api.dispose();
  }

  // The admin registers, leaves, and logs back in to the admin's own welcome.
  const admin = await registerThroughUi(page, { ...uniqueUser(), username: 'e2eboss' });
  await page.getByRole('banner').getByRole('button', { name: APP_STRINGS.logout }).click();
  await expect(page.getByText(AUTH_STRINGS.logoutSuccessTitle, { exact: true })).toBeVisible();
  await loginThroughUi(page, admin.username, admin.password);
  await expect(page.getByText(AUTH_STRINGS.loginSuccessAdminText, { exact: true })).toBeVisible();

  await openDashboard(page);
  await expect(page.getByText(/Offline demo narrator/).first()).toBeVisible();
  await expectNoSeriousViolations(page);

  // Tokens, then estimated costs: dollars to 2 decimals appear in the usage card.
  const usageCard = page.locator('dl').first();
  await expect(usageCard.getByText(/^\$\d[\d,]*\.\d{2}$/)).toHaveCount(0);
  await page.getByRole('switch', { name: ADMIN_STRINGS.showCosts }).click();
  await expect(page.getByRole('switch', { name: ADMIN_STRINGS.showCosts })).toBeChecked();
  await expect(page.getByText(ADMIN_STRINGS.totalCost)).toBeVisible();
  await expect(usageCard.getByText(/^\$\d[\d,]*\.\d{2}$/).first()).toBeVisible();
  await page.getByRole('switch', { name: ADMIN_STRINGS.showCosts }).click();

  // The cost by narrator: the plain app's two narrators, each with tokens and a cost, and their CSV.
  const byNarrator = page.getByRole('table', { name: ADMIN_STRINGS.byNarratorCaption });
  const narratorRow = (label: string) => byNarrator.getByRole('row', { name: new RegExp(`^${label} \\(`) });
  for (const [label, id] of [
    ['Demo narrator', 'demo'],
    ['Demo narrator, long memory', 'long-memory'],
  ] as const) {
    await expect(narratorRow(label).getByRole('rowheader')).toHaveText(`${label} (${id})`);
    const cells = await narratorRow(label).getByRole('cell').allTextContents();
    expect(Number(cells[0].replace(/,/g, '')), `${label}'s input tokens`).toBeGreaterThan(0);
    expect(cells[3], `${label}'s cost`).toMatch(/^\$\d[\d,]*\.\d{2}$/);
    expect(cells[6], `${label}'s share of the month`).toMatch(/^\d{1,3}\.\d%$/);
  }
  const [narratorsFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: ADMIN_STRINGS.byNarratorDownload }).click(),
  ]);
  expect(narratorsFile.suggestedFilename()).toMatch(/^taleweaver-narrators-\d{4}-\d{2}\.csv$/);
  const narratorsCsv = (await readFile(await narratorsFile.path(), 'utf8')).split(/\r?\n/);
  expect(narratorsCsv[0]).toMatch(/^id,label,inCatalogue,input,/);
  expect(narratorsCsv[1]).toMatch(/^demo,Demo narrator,true,[1-9]\d*,/);
  expect(narratorsCsv[2]).toMatch(/^long-memory,"Demo narrator, long memory",true,[1-9]\d*,/);

  // The period switch asks for 90 days.
  const ninety = page.waitForResponse((r) => r.url().includes('/api/admin/usage/history?days=90') && r.ok());
  await page.getByRole('radio', { name: ADMIN_STRINGS.periodOption(90) }).click();
  await ninety;
  await expect(page.getByText(ADMIN_STRINGS.historyDescription(90)).first()).toBeVisible();

  // Search narrows the table to this test's three players.
  await page.getByPlaceholder(ADMIN_STRINGS.searchPlaceholder).fill(prefix);
  await expect.poll(() => visibleUsernames(page)).toEqual([busy, casual, idle]);
  await expect(page.getByText(ADMIN_STRINGS.userCount(3))).toBeVisible();

  // 'This Month' keeps only those who spent tokens this month.
  await page.getByRole('tab', { name: ADMIN_STRINGS.tabMonth }).click();
  await expect(page.getByRole('tab', { name: ADMIN_STRINGS.tabMonth })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => visibleUsernames(page)).toEqual([busy, casual]);
  await page.getByRole('tab', { name: ADMIN_STRINGS.tabAll }).click();
  await expect.poll(() => visibleUsernames(page)).toEqual([busy, casual, idle]);

  // Sort by Total: ascending, descending, then back to id order.
  const totalHeader = usersTable(page).getByRole('columnheader', { name: ADMIN_STRINGS.columns.total });
  await expect(totalHeader).toHaveAttribute('aria-sort', 'none');
  await totalHeader.getByRole('button').click();
  await expect(totalHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(async () => (await visibleUsernames(page))[0]).toBe(idle);
  const ascending = await visibleTotals(page);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  await totalHeader.getByRole('button').click();
  await expect(totalHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => (await visibleUsernames(page)).at(-1)).toBe(idle);
  const descending = await visibleTotals(page);
  expect(descending).toEqual([...descending].sort((a, b) => b - a));
  expect(descending[0]).toBeGreaterThan(0);
  await totalHeader.getByRole('button').click();
  await expect(totalHeader).toHaveAttribute('aria-sort', 'none');
  await expect.poll(() => visibleUsernames(page)).toEqual([busy, casual, idle]);

  // The busy player's months: this month's calls (opening and two turns, plus any title) and cost.
  await page.getByRole('button', { name: ADMIN_STRINGS.viewUsage(busy) }).click();
  const dialog = page.getByRole('dialog', { name: ADMIN_STRINGS.userUsageTitle(busy) });
  await expect(dialog).toBeVisible();
  const month = dialog.locator('tbody tr').first();
  await expect(month.getByRole('rowheader')).toHaveText(
    new Date().toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
  );
  await expect(month.getByRole('cell').first()).not.toHaveText('0');
  await expect(month.getByRole('cell').last()).toHaveText(/^\$\d[\d,]*\.\d{2}$/);
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The download opens a new window whose answer is the users as CSV.
  // A new window opens, turns into the download at once and closes; Chromium reports the download
  // on the page that opened it.
  const [popup, download] = await Promise.all([
    page.waitForEvent('popup'),
    page.waitForEvent('download'),
    page.getByRole('button', { name: ADMIN_STRINGS.download }).click(),
  ]);
  expect(popup).toBeTruthy();
  expect(download.url()).toMatch(/\/api\/admin\/users\/download$/);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await readFile(await download.path(), 'utf8');
  expect(csv.split(/\r?\n/)[0]).toMatch(/^id,username,email,/);
  for (const username of [busy, casual, idle, 'e2eboss']) expect(csv).toContain(username);
  const direct = await page.request.get('/api/admin/users/download');
  expect(direct.headers()['content-type']).toMatch(/^text\/csv/);
  expect(direct.headers()['content-disposition']).toMatch(/^attachment;/);

  // The light theme too, with costs shown and the daily figures open (the dark one was scanned above).
  await page.evaluate(() => localStorage.setItem('vite-ui-theme', 'light'));
  await openDashboard(page);
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.getByRole('switch', { name: ADMIN_STRINGS.showCosts }).click();
  await page.getByText(ADMIN_STRINGS.dailyFigures).click();
  await expect(page.getByRole('region', { name: ADMIN_STRINGS.dailyFigures })).toBeVisible();
  await expectNoSeriousViolations(page);
});
