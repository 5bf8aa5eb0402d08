import type { FormParams } from '../../../vendors/telephony/twilio-webhook.js';
import { friendly, rfc2822, type StandinAccount, type StandinNumber, type TwilioState } from './state.js';
import { API_VERSION, E164, listEnvelope, notFound, one, pageParams, TwilioFault, type Answer } from './wire.js';
import { testNumberBehaviour } from './test-numbers.js';

/**
 * The number resources of Twilio's REST API: AvailablePhoneNumbers (search) and IncomingPhoneNumbers
 * (list, buy, fetch, update, release), with the validation codes Twilio answers.
 */

/**
 * Numbers the stand-in sells: US/CA `+1 <area> 555-01xx` (the range reserved for fiction, so nobody can
 * dial a real person from a sandbox) and UK `+44 7700 900xxx` (Ofcom's drama range), but the test numbers
 * (test-numbers.ts): they are callees with set behaviours, not lines to own.
 */
function numberPool(country: string, areaCode: string | undefined): string[] | undefined {
  if (country === 'US' || country === 'CA') {
    const area = areaCode ?? (country === 'US' ? '415' : '416');
    if (!/^[2-9]\d{2}$/.test(area)) return [];
    return Array.from({ length: 100 }, (_, i) => `+1${area}55501${String(i).padStart(2, '0')}`).filter((n) => !testNumberBehaviour(n));
  }
  if (country === 'GB') return Array.from({ length: 1000 }, (_, i) => `+447700900${String(i).padStart(3, '0')}`);
  return undefined;
}

const inPool = (phoneNumber: string) =>
  (/^\+1[2-9]\d{2}55501\d{2}$/.test(phoneNumber) && !testNumberBehaviour(phoneNumber)) || /^\+447700900\d{3}$/.test(phoneNumber);

const KEYPAD: Record<string, string> = Object.fromEntries(
  ['abc', 'def', 'ghi', 'jkl', 'mno', 'pqrs', 'tuv', 'wxyz'].flatMap((letters, i) => [...letters].map((l) => [l, String(i + 2)])),
);

/** Twilio's `Contains` / `PhoneNumber` pattern: digits, keypad letters, `*` for any one digit. */
function patternMatcher(pattern: string): (phoneNumber: string) => boolean {
  const source = [...pattern.toLowerCase()]
    .map((ch) => (ch === '*' ? '\\d' : /\d/.test(ch) ? ch : KEYPAD[ch] ?? (ch === '+' ? '\\+' : '')))
    .join('');
  const re = new RegExp(source);
  return (phoneNumber) => re.test(phoneNumber);
}

const numberJson = (n: StandinNumber) => ({
  account_sid: n.accountSid,
  address_requirements: 'none',
  address_sid: null,
  api_version: API_VERSION,
  beta: false,
  bundle_sid: null,
  capabilities: { fax: false, mms: true, sms: true, voice: true },
  date_created: n.dateCreated,
  date_updated: n.dateUpdated,
  emergency_address_sid: null,
  emergency_address_status: 'unregistered',
  emergency_status: 'Active',
  friendly_name: n.friendlyName,
  identity_sid: null,
  origin: 'twilio',
  phone_number: n.phoneNumber,
  sid: n.sid,
  sms_application_sid: '',
  sms_fallback_method: 'POST',
  sms_fallback_url: '',
  sms_method: 'POST',
  sms_url: n.smsUrl,
  status: 'in-use',
  status_callback: n.statusCallback,
  status_callback_method: n.statusCallbackMethod,
  subresource_uris: {
    assigned_add_ons: `/${API_VERSION}/Accounts/${n.accountSid}/IncomingPhoneNumbers/${n.sid}/AssignedAddOns.json`,
  },
  trunk_sid: n.trunkSid,
  type: 'local',
  uri: `/${API_VERSION}/Accounts/${n.accountSid}/IncomingPhoneNumbers/${n.sid}.json`,
  voice_application_sid: n.voiceApplicationSid,
  voice_caller_id_lookup: false,
  voice_fallback_method: 'POST',
  voice_fallback_url: n.voiceFallbackUrl,
  voice_method: n.voiceMethod,
  voice_receive_mode: 'voice',
  voice_url: n.voiceUrl,
});

/** The number resources of one stand-in. */
export class NumberResources {
  /** `sandbox`: looking up an unowned E.164 number puts it in the asking account (see standin.ts). */
  constructor(
    private readonly state: TwilioState,
    private readonly sandbox: boolean,
  ) {}

  /** Answers a request under `/Accounts/{sid}` if it names a number resource, else undefined. */
  route(account: StandinAccount, method: string, path: string, rest: string, query: FormParams, form: FormParams): Answer | undefined {
    const available = /^\/AvailablePhoneNumbers\/([A-Z]{2})\/Local\.json$/.exec(rest);
    if (available && method === 'GET') return [200, this.searchAvailable(path, available[1]!, query)];
    if (rest === '/IncomingPhoneNumbers.json') {
      if (method === 'GET') return [200, this.list(account, path, query)];
      if (method === 'POST') return [201, numberJson(this.buy(account, form))];
    }
    const byId = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(rest);
    if (!byId) return undefined;
    const number = this.state.numbers[byId[1]!];
    if (!number || number.accountSid !== account.sid) throw notFound(path);
    if (method === 'GET') return [200, numberJson(number)];
    if (method === 'POST') {
      applyRouting(number, form);
      this.state.save();
      return [200, numberJson(number)];
    }
    if (method === 'DELETE') {
      this.state.releaseNumber(number.sid);
      return [204, undefined];
    }
    return undefined;
  }

  private searchAvailable(path: string, country: string, query: FormParams) {
    const pool = numberPool(country, one(query.AreaCode));
    if (!pool) throw notFound(path);
    const contains = one(query.Contains);
    const matches = contains ? patternMatcher(contains) : () => true;
    const { size } = pageParams(query, 50, 1000);
    const free = pool.filter((p) => !this.state.numberByPhone(p) && matches(p)).slice(0, size);
    return {
      available_phone_numbers: free.map((p) => ({
        address_requirements: 'none',
        beta: false,
        capabilities: { MMS: true, SMS: true, voice: true, fax: false },
        friendly_name: friendly(p),
        iso_country: country,
        lata: null,
        latitude: null,
        locality: null,
        longitude: null,
        phone_number: p,
        postal_code: null,
        rate_center: null,
        region: null,
      })),
      end: Math.max(0, free.length - 1),
      first_page_uri: `${path}?PageSize=${size}&Page=0`,
      next_page_uri: null,
      page: 0,
      page_size: size,
      previous_page_uri: null,
      start: 0,
      uri: `${path}?PageSize=${size}&Page=0`,
    };
  }

  private buy(account: StandinAccount, form: FormParams): StandinNumber {
    let phoneNumber = one(form.PhoneNumber);
    const areaCode = one(form.AreaCode);
    if (!phoneNumber && !areaCode) throw new TwilioFault(400, 21450, 'A PhoneNumber or AreaCode is required');
    if (!phoneNumber) {
      phoneNumber = numberPool('US', areaCode)?.find((p) => !this.state.numberByPhone(p));
      if (!phoneNumber) throw new TwilioFault(400, 21452, `No phone numbers found in area code ${areaCode}`);
    }
    if (!E164.test(phoneNumber)) throw new TwilioFault(400, 21421, `PhoneNumber is invalid: ${phoneNumber}`);
    if (!inPool(phoneNumber) || this.state.numberByPhone(phoneNumber)) {
      throw new TwilioFault(400, 21422, `PhoneNumber ${phoneNumber} is not available`);
    }
    const number = this.state.addNumber(account.sid, phoneNumber);
    applyRouting(number, form);
    this.state.save();
    return number;
  }

  private list(account: StandinAccount, path: string, query: FormParams) {
    const filter = one(query.PhoneNumber);
    const friendlyName = one(query.FriendlyName);
    // Sandbox: an account asking about an exact number nobody holds gets it (see standin.ts).
    if (this.sandbox && filter && E164.test(filter) && !this.state.numberByPhone(filter)) this.state.addNumber(account.sid, filter);
    const matches = filter ? patternMatcher(filter) : () => true;
    const { size, page } = pageParams(query, 50, 1000);
    const items = Object.values(this.state.numbers)
      .filter((n) => n.accountSid === account.sid && matches(n.phoneNumber) && (!friendlyName || n.friendlyName === friendlyName))
      .map(numberJson);
    return listEnvelope('incoming_phone_numbers', path, query, items, size, page);
  }
}

/** The settable fields of a number, from a create or update form. */
function applyRouting(n: StandinNumber, form: FormParams): void {
  const fields: [string, keyof StandinNumber][] = [
    ['VoiceUrl', 'voiceUrl'],
    ['VoiceMethod', 'voiceMethod'],
    ['VoiceFallbackUrl', 'voiceFallbackUrl'],
    ['StatusCallback', 'statusCallback'],
    ['StatusCallbackMethod', 'statusCallbackMethod'],
    ['VoiceApplicationSid', 'voiceApplicationSid'],
    ['FriendlyName', 'friendlyName'],
    ['SmsUrl', 'smsUrl'],
  ];
  for (const [param, field] of fields) {
    const value = one(form[param]);
    if (value === undefined) continue;
    if ((param === 'VoiceUrl' || param === 'StatusCallback' || param === 'VoiceFallbackUrl') && value !== '' && !/^https?:\/\//.test(value)) {
      throw new TwilioFault(400, 21502, `${param} is not a valid URL: ${value}`);
    }
    if ((param === 'VoiceMethod' || param === 'StatusCallbackMethod') && !['GET', 'POST'].includes(value.toUpperCase())) {
      throw new TwilioFault(400, 21503, `${param} must be GET or POST`);
    }
    (n as unknown as Record<string, string>)[field] = param.endsWith('Method') ? value.toUpperCase() : value;
  }
  const trunk = one(form.TrunkSid);
  if (trunk !== undefined) n.trunkSid = trunk === '' ? null : trunk;
  n.dateUpdated = rfc2822();
}
