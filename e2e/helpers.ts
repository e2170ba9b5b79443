// Shared steps for the browser journeys: unique accounts, the captcha read off the page and
// solved like a person would, and registration through the real form.
import { expect, type Locator, type Page } from '@playwright/test';
import { APP_STRINGS } from '../client/app/strings';
import { AUTH_STRINGS } from '../client/features/auth/strings';
import { HOME_STRINGS } from '../client/features/home/strings';
import { NARRATION_STRINGS } from '../client/features/narration/strings';
import { STORY_STRINGS } from '../client/features/story/strings';
import { SHARING_STRINGS } from '../client/features/sharing/strings';

let counter = 0;
export function uniqueUser(prefix = 'e2e') {
  counter += 1;
  const username = `${prefix}${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1000)}`;
  return { username, email: `${username}@example.com`, password: 'story-time-42' };
}

export function answerFor(question: string): string {
  const match = /What is (\d+) ([+\-×]) (\d+)\?/.exec(question);
  if (!match) throw new Error(`not a captcha question: ${question}`);
  const [a, op, b] = [Number(match[1]), match[2], Number(match[3])];
  return String(op === '+' ? a + b : op === '-' ? a - b : a * b);
}

export async function solveCaptcha(page: Page): Promise<void> {
  const question = page.getByText(/What is \d+ [+\-×] \d+\?/);
  await expect(question).toBeVisible();
  await page.getByLabel(AUTH_STRINGS.captchaAnswerLabel).fill(answerFor((await question.textContent()) ?? ''));
}

export async function openRegister(page: Page, path = '/auth'): Promise<void> {
  await page.goto(path);
  await page
    .getByRole('button', { name: AUTH_STRINGS.toRegister })
    .or(page.getByRole('link', { name: AUTH_STRINGS.toRegister }))
    .click();
  await expect(page.getByRole('heading', { name: AUTH_STRINGS.registerTitle })).toBeVisible();
}

export async function registerThroughUi(page: Page, user = uniqueUser(), path = '/auth') {
  await openRegister(page, path);
  const form = page.getByRole('form', { name: AUTH_STRINGS.registerTitle });
  await form.getByLabel(AUTH_STRINGS.usernameLabel, { exact: true }).fill(user.username);
  await form.getByLabel(AUTH_STRINGS.emailLabel, { exact: true }).fill(user.email);
  await form.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(user.password);
  await solveCaptcha(page);
  await form.getByRole('button', { name: AUTH_STRINGS.registerSubmit }).click();
  await expect(page.getByText(AUTH_STRINGS.registerSuccessTitle, { exact: true })).toBeVisible();
  return user;
}

/**
 * Makes an account through the API (the captcha read and answered, as the form does) and leaves the
 * browser signed in, without drawing the form: for the journeys about something else. The form
 * itself is walked by registerThroughUi in the account, validation, shell and story journeys.
 * Measured on the CI machine, it spared each journey the seconds of a page load and a form.
 */
export async function signUp(page: Page, user = uniqueUser()) {
  const captcha = await page.request.get('/api/captcha');
  expect(captcha.status()).toBe(200);
  const { question } = (await captcha.json()) as { question: string };
  const registered = await page.request.post('/api/register', {
    data: { username: user.username, email: user.email, password: user.password, captchaAnswer: answerFor(question) },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  return user;
}

export async function loginThroughUi(page: Page, login: string, password: string) {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: AUTH_STRINGS.loginTitle });
  await form.getByLabel(AUTH_STRINGS.usernameOrEmailLabel).fill(login);
  await form.getByLabel(AUTH_STRINGS.passwordLabel, { exact: true }).fill(password);
  await form.getByRole('button', { name: AUTH_STRINGS.loginSubmit, exact: true }).click();
}

/**
 * Opens Home and waits until the session is known (the header shows Logout or Login / Register):
 * a story started before that only gets the 'Please wait' toast, as the spec says.
 */
export async function gotoHome(page: Page) {
  await page.goto('/');
  const header = page.getByRole('banner');
  await expect(
    header
      .getByRole('button', { name: APP_STRINGS.logout })
      .or(header.getByRole('link', { name: APP_STRINGS.loginRegister }))
      .first(),
  ).toBeVisible();
}

/** Starts a story from Home and waits until its opening has been written and the address names it. */
export async function beginStory(page: Page, scenario: string) {
  await gotoHome(page);
  await page.getByPlaceholder(HOME_STRINGS.scenarioPlaceholder).fill(scenario);
  await page.getByRole('button', { name: HOME_STRINGS.begin }).click();
  await waitForOpening(page);
}

/**
 * Waits until a story just begun shows its whole opening. The address names the story as soon as
 * the server does and the opening comes a little later: waiting for no reply being written before
 * one is on screen passes at once, and the opening was read at its first word.
 */
export async function waitForOpening(page: Page) {
  await expect(page).toHaveURL(/\/story\/\d+$/, { timeout: 20_000 });
  await expect(page.getByRole('article', { name: STORY_STRINGS.narrator }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-streaming]')).toHaveCount(0, { timeout: 20_000 });
}

/** Shares the story on screen (under `title`, else the prefilled one) and answers the link with the share dialog still open. */
export async function createShareLink(page: Page, title?: string) {
  await page.getByRole('button', { name: SHARING_STRINGS.shareTooltip }).click();
  const naming = page.getByRole('dialog', { name: SHARING_STRINGS.nameDialogTitle });
  await expect(naming.getByLabel(SHARING_STRINGS.titleLabel)).not.toHaveValue('', { timeout: 10_000 });
  if (title) await naming.getByLabel(SHARING_STRINGS.titleLabel).fill(title);
  await naming.getByRole('button', { name: SHARING_STRINGS.createLink, exact: true }).click();
  const shareDialog = page.getByRole('dialog', { name: SHARING_STRINGS.shareDialogTitle });
  return { link: await shareDialog.getByLabel(SHARING_STRINGS.linkLabel).inputValue(), shareDialog };
}

/** Opens the story page's 'Story Experience' drawer; answers it once its 'Narrator Voice' section shows. */
export async function openStoryExperience(page: Page): Promise<Locator> {
  const opener = page.getByRole('button', { name: STORY_STRINGS.storyExperience });
  const drawer = page.getByRole('dialog', { name: STORY_STRINGS.storyExperience });
  const heading = drawer.getByRole('heading', { name: NARRATION_STRINGS.section });
  // Once in CI, on a busy machine, the drawer did not open from a click just after a story's opening
  // settled (not reproduced since, under load or not). Clicking again only while it is not open still
  // checks that the button opens it, and what it shows.
  await expect(async () => {
    if (!(await drawer.isVisible())) await opener.click();
    await expect(heading).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 15_000 });
  return drawer;
}

/** The 'Narrator Voice' controls of an open drawer. */
export function narrationControls(drawer: Locator) {
  return {
    drawer,
    toggle: drawer.getByRole('switch', { name: NARRATION_STRINGS.enableToggle }),
    picker: drawer.getByRole('combobox', { name: NARRATION_STRINGS.voiceLabel }),
    play: drawer.getByRole('button', { name: NARRATION_STRINGS.play, exact: true }),
    pause: drawer.getByRole('button', { name: NARRATION_STRINGS.pause, exact: true }),
    resume: drawer.getByRole('button', { name: NARRATION_STRINGS.resume, exact: true }),
    stop: drawer.getByRole('button', { name: NARRATION_STRINGS.stop, exact: true }),
  };
}
