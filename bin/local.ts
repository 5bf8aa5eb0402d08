/**
 * `npm start`: the whole platform on this machine, offline, on its embedded defaults.
 */
import { fileURLToPath } from 'node:url';
import { cliCommandFor } from '../lib/local/cli/cli-args.js';
import { LocalSettings, startPlatform } from '../lib/local/platform/platform.js';

/** `npm run cli` runs in the project root, where the default DATA_DIR (.data) resolves. */
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../.data', import.meta.url));

const settings = LocalSettings.parse(process.env);
const platform = await startPlatform(settings);
process.stdout.write(
  [
    `Voice agent platform running at ${platform.baseUrl}`,
    `Dashboard:       ${platform.baseUrl}/dashboard/`,
    `API reference:   ${platform.docsUrl}`,
    `OpenAPI:         ${platform.baseUrl}/api/openapi.json`,
    `Data directory:  ${settings.DATA_DIR}`,
    platform.twilio
      ? `Telephony:       local Twilio stand-in at ${platform.twilio.baseUrl} (sandbox: any AC... sid with a 32-hex token; see docs/telephony.md)`
      : 'Telephony:       real Twilio (TWILIO_ACCOUNT_SID)',
    // The exact command, DATA_DIR included when the CLI would not find this directory by default.
    `Create a workspace: ${cliCommandFor(settings.DATA_DIR, ['workspace', 'create', '--name', 'My team', '--credits', '100'], DEFAULT_DATA_DIR)}`,
    '',
  ].join('\n'),
);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await platform.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
