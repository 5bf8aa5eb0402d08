import { loadSideModule } from '../side-module.js';

/** The file ./agent-test-libs.ts is built into beside the run consumer's bundle. */
export const AGENT_TEST_LIBS_FILE = 'agent-test-libs.mjs';
export const AGENT_TEST_LIBS_SOURCE = 'lib/services/agent-test-libs.ts';

export function loadAgentTestLibs(): Promise<typeof import('./agent-test-libs.js')> {
  return loadSideModule<typeof import('./agent-test-libs.js')>(import.meta.url, AGENT_TEST_LIBS_FILE, './agent-test-libs.js');
}
