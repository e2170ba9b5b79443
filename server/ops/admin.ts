// `npm run admin -- grant|revoke <username>`: gives or takes an existing account's admin rights,
// on the configured database (the embedded one with the server stopped: it refuses while one runs).
// A grant made here is recorded in admin_grants, which start-up's sync with
// ADMIN_USERNAMES leaves alone; so an operator can make an admin without racing anyone to register a
// listed name. A running server on PostgreSQL sees the change within its session cache's 10 s.
import { createRepositories } from '@server/db/repositories';
import { OpsError } from './ops-error';
import { openConfigured, readConfig, runCommand } from './command';

const USAGE = 'Usage: npm run admin -- grant|revoke <username>';

runCommand(USAGE, async (args) => {
  const [action, username, ...rest] = args;
  if ((action !== 'grant' && action !== 'revoke') || !username || rest.length > 0) throw new OpsError(USAGE);
  const config = readConfig();
  const { database } = await openConfigured(config, 'change admin rights in the embedded database', {
    mustExist: true,
  });
  try {
    // The same schema as the server's: admin_grants came with migration 0028.
    await database.migrate();
    const user = await createRepositories(database.db).users.setAdminByCommand(username, action === 'grant');
    if (!user) throw new OpsError(`No account is named ${username}: nothing was changed.`);
    await database.flush();
    if (action === 'grant') {
      console.log(`${user.username} is an admin now; a change of ADMIN_USERNAMES will not take it away.`);
      return;
    }
    const listed = config.adminUsernames.includes(user.username.toLowerCase());
    console.log(
      `${user.username} is no longer an admin.` +
        (listed
          ? ` ADMIN_USERNAMES lists ${user.username}: the next start grants it again unless you remove the name from it.`
          : ''),
    );
  } finally {
    await database.close();
  }
});
