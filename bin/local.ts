/**
 * `npm start`: the whole platform on this machine, offline, on its embedded defaults.
 */
import { fileURLToPath } from 'node:url';
import { cliCommandFor } from '../lib/local/cli/cli-args.js';
import { loadConfig } from '../lib/config.js';
import { LocalSettings, startPlatform } from '../lib/local/platform/platform.js';
import { standInsOf } from '../lib/vendors/stand-ins.js';

/** `npm run cli` runs in the project root, where the default DATA_DIR (.data) resolves. */
const DEFAULT_DATA_DIR = fileURLToPath(new URL('../.data', import.meta.url));

const settings = LocalSettings.parse(process.env);
const platform = await startPlatform(settings);
// The voice vendors left on their stand-ins (docs/provider-keys.md, "Simulated vendors").
const simulated = standInsOf(loadConfig(), undefined, { channel: 'web' })?.parts ?? [];
const keyVariables = [...new Set(simulated.map((p) => p.keyVariable))];
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
    simulated.length > 0
      ? `Voice vendors:   local stand-ins for ${[...new Set(simulated.map((p) => p.vendor))].join(', ')} (scripted, not real speech); set a vendor's key (${keyVariables.length > 3 ? `${keyVariables.slice(0, 3).join(', ')}, ...` : keyVariables.join(', ')}) to use its real service`
      : 'Voice vendors:   the real services',
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
