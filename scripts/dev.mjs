// `npm run dev`: the API with reload on change (tsx watch, port 3000) and the Vite dev server with
// hot module replacement on http://localhost:5173, which proxies /api to the API.
import { spawn } from 'node:child_process';

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/main.ts'], {
    stdio: 'inherit',
    env: { NODE_ENV: 'development', SERVE_CLIENT: 'false', HOST: '127.0.0.1', ...process.env },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
