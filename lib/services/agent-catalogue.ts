import type { Agent } from '../domain/agent.js';
import { ServiceUnavailableError, ValidationError, type ErrorDetail } from '../domain/errors.js';
import { closest, modelListed, type VoicesView } from '../domain/voices.js';
import type { WorkspaceProviderKeys } from '../domain/provider-key.js';
import type { Db } from '../store/dynamo.js';
import { workspaceProviderKeys } from '../store/provider-keys.js';
import type { SecretBox } from '../store/secret-box.js';
import { vendorModels, vendorVoices, type CatalogueConfig, type ModelVendor } from '../vendors/catalogue.js';

/**
 * Save-time checks of an agent against its vendors' catalogues (docs/api.md, "Voices and models"): a
 * `tts_voice_id` the voice vendor's account does not have, or an `llm_model` the model vendor does not
 * serve, is a 400 naming the field with valid values to pick from, instead of an agent whose every call
 * fails. Only what the platform can know is checked: a catalogue that cannot be read (no key, the vendor
 * down) lets the save through and says nothing. Agents name no speech-to-text model (the transcriber's model
 * is the platform's setting, docs/vendors-stt.md), so there is none to check; a `custom` model's endpoint is
 * the customer's and is not listed.
 */

export interface CatalogueDeps {
  readonly db: Db;
  readonly secrets: SecretBox;
  readonly config: CatalogueConfig;
}

/** The fields a save may change that a catalogue can vouch for. */
export type CatalogueFields = Partial<Pick<Agent, 'tts_provider' | 'tts_voice_id' | 'llm_provider' | 'llm_model' | 'realtime'>>;

/** How many valid values a refusal suggests. */
const SUGGESTIONS = 5;

const MODEL_VENDORS: ReadonlySet<string> = new Set<ModelVendor>(['openai', 'anthropic', 'google']);

/**
 * Checks `fields` (the saved values of the fields a save sets: all of them on create, the changed ones on
 * update) and throws a {@link ValidationError} listing every refusal. The workspace's own vendor keys are
 * read only when a field needs checking.
 */
export async function assertInCatalogues(deps: CatalogueDeps, ws: string, fields: CatalogueFields): Promise<void> {
  const wantsVoice = fields.tts_provider !== undefined && fields.tts_voice_id !== undefined;
  const wantsModel = fields.llm_provider !== undefined && fields.llm_model !== undefined && MODEL_VENDORS.has(fields.llm_provider);
  const realtime = fields.realtime ?? undefined;
  if (!wantsVoice && !wantsModel && !realtime) return;
  const keys: WorkspaceProviderKeys = await workspaceProviderKeys(deps.db, deps.secrets, ws).catch(() => ({}));
  // The model and voice were checked by the schema (lib/domain/realtime.ts); what only the platform knows is
  // whether any key reaches the vendor: without one, every call would fall back to the cascade at once.
  if (realtime && !keys[realtime.provider] && !(realtime.provider === 'google' ? deps.config.GOOGLE_API_KEY : deps.config.OPENAI_API_KEY)) {
    throw new ValidationError([
      { field: 'realtime.provider', message: `no ${realtime.provider} key: neither the platform nor this workspace has one (add one under provider keys, docs/provider-keys.md)` },
    ]);
  }
  if (!wantsVoice && !wantsModel) return;
  const [voices, models] = await Promise.all([
    wantsVoice ? vendorVoices(deps.config, fields.tts_provider!, keys[fields.tts_provider!]) : undefined,
    wantsModel ? vendorModels(deps.config, fields.llm_provider as ModelVendor, keys[fields.llm_provider as ModelVendor]) : undefined,
  ]);
  const problems: ErrorDetail[] = [];
  if (voices && !voices.some((v) => v.id === fields.tts_voice_id)) {
    const near = closest(voices, fields.tts_voice_id!, (v) => [v.id, v.name], SUGGESTIONS);
    problems.push({
      field: 'tts_voice_id',
      message: `${fields.tts_provider} has no voice "${fields.tts_voice_id}" for this account${near.length ? `; valid voices include ${near.map((v) => `${v.id} (${v.name})`).join(', ')}` : ''}. GET /api/voices?provider=${fields.tts_provider} lists them all.`,
      suggestions: near.map((v) => v.id),
    });
  }
  if (models && !modelListed(models, fields.llm_model!)) {
    const near = closest(models, fields.llm_model!, (m) => [m], SUGGESTIONS);
    problems.push({
      field: 'llm_model',
      message: `${fields.llm_provider} serves no model "${fields.llm_model}" to this account${near.length ? `; valid models include ${near.join(', ')}` : ''}.`,
      suggestions: near,
    });
  }
  if (problems.length > 0) throw new ValidationError(problems);
}

/** `GET /api/voices?provider=`: the voices the workspace's account (or the platform's) may use; empty when unknown. */
export async function listVoices(deps: CatalogueDeps, ws: string, provider: VoicesView['provider']): Promise<VoicesView> {
  const keys: WorkspaceProviderKeys = await workspaceProviderKeys(deps.db, deps.secrets, ws).catch(() => ({}));
  const voices = await vendorVoices(deps.config, provider, keys[provider]);
  if (!voices) throw new CatalogueUnavailable(provider);
  return { provider, data: voices };
}

/**
 * The vendor's voice list could not be read: 503 with Retry-After (never an empty list, which would read as
 * "no voices"). Thirty seconds: a vendor that did not answer is rarely back sooner.
 */
export class CatalogueUnavailable extends ServiceUnavailableError {
  constructor(provider: string) {
    super(30, { message: `${provider}'s voice list could not be read (the platform has no key for it, the vendor refused the key, or it did not answer). Try again in 30 seconds; check the workspace's key under provider keys.` });
  }
}
