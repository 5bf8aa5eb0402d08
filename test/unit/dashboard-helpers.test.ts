import { describe, expect, it } from 'vitest';
import { niceTicks } from '../../lib/web/dashboard/src/charts.js';
import { BUILT_IN_VARIABLES as DASHBOARD_BUILT_INS, segments, variablesIn } from '../../lib/web/dashboard/src/template.js';
import { BUILT_IN_VARIABLES as PLATFORM_BUILT_INS, fillTemplate } from '../../lib/domain/template.js';
import { dashboardCsp } from '../../lib/web/dashboard/headers.js';

describe('the prompt editor reads {{variables}} as the streaming service fills them', () => {
  const known = new Set(['contactName', 'plan']);

  it('cuts text into runs and placeholders, marking the known ones', () => {
    expect(segments('Hi {{contactName}}, plan {{ plan }} and {{tier}}.', known)).toEqual([
      { text: 'Hi ' },
      { text: '{{contactName}}', variable: { name: 'contactName', known: true } },
      { text: ', plan ' },
      { text: '{{ plan }}', variable: { name: 'plan', known: true } },
      { text: ' and ' },
      { text: '{{tier}}', variable: { name: 'tier', known: false } },
      { text: '.' },
    ]);
  });

  it('finds the same placeholders fillTemplate fills, once each, and nothing in near misses', () => {
    const text = '{{a}} {{a}} {{b.c}} {{ d-e }} {single} {{ }} {{x y}}';
    expect(variablesIn(text)).toEqual(['a', 'b.c', 'd-e']);
    // Every name the editor reports is one the call fills; the near misses stay literal in both.
    expect(fillTemplate(text, { a: '1', 'b.c': '2', 'd-e': '3' })).toBe('1 1 2 3 {single} {{ }} {{x y}}');
  });

  it('takes a placeholder with a default as filled, as the call does, and knows the built-ins the platform sets', () => {
    const text = 'Hi {{first_name|there}}, {{plan}} on {{current_date}}';
    expect(variablesIn(text)).toEqual(['plan', 'current_date']);
    expect(segments(text, new Set()).filter((s) => s.variable).map((s) => [s.variable!.name, s.variable!.known])).toEqual([['first_name', true], ['plan', false], ['current_date', false]]);
    expect(fillTemplate('Hi {{first_name|there}}', {})).toBe('Hi there');
    expect(DASHBOARD_BUILT_INS.filter((n) => n !== 'contactName' && n !== 'phoneNumber')).toEqual([...PLATFORM_BUILT_INS]);
  });

  it('joins the segments back into the exact text (the highlight layer lines up with the textarea)', () => {
    const text = 'Line one {{contactName}}\n\nline {{x}} three {{';
    expect(segments(text, known).map((s) => s.text).join('')).toBe(text);
  });
});

describe('chart axes', () => {
  it('step by 1, 2 or 5 times a power of ten, and reach the largest value', () => {
    expect(niceTicks(945)).toEqual([0, 500, 1000]);
    expect(niceTicks(800)).toEqual([0, 200, 400, 600, 800]);
    expect(niceTicks(0.3, 3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(7, 3)).toEqual([0, 5, 10]);
    // Nothing to show still gives an axis with a length (the charts divide by its end).
    expect(niceTicks(0).length).toBe(2);
  });
});

describe('the dashboard CSP', () => {
  it('runs only this origin’s code and plays recordings from the named bucket', () => {
    const csp = dashboardCsp(['http://127.0.0.1:4569']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("media-src 'self' http://127.0.0.1:4569;");
    expect(csp).not.toMatch(/unsafe-(inline|eval)/);
  });
});

describe("the dashboard's copies of API constants are the API's", () => {
  it('campaign defaults, outcomes and lifecycle', async () => {
    const page = await import('../../lib/web/dashboard/src/campaign-defaults.js');
    const domain = await import('../../lib/domain/campaign.js');
    const window = await import('../../lib/domain/calling-window.js');
    expect(page.DEFAULT_RETRY).toEqual(domain.DEFAULT_RETRY);
    expect(page.DEFAULT_WINDOW).toEqual(window.DEFAULT_WINDOW);
    expect(page.WEEKDAYS).toEqual(window.WEEKDAYS);
    expect(page.OUTCOMES).toEqual(domain.CALL_OUTCOMES);
    expect(page.RETRIED_OUTCOMES).toEqual(domain.RETRIED_OUTCOMES);
    expect(domain.CampaignCreate.parse({ name: 'n', agentId: 'a', phoneNumberIds: ['p'], contacts: { search: 's' } }).concurrency).toBe(page.DEFAULT_CONCURRENCY);
    expect(Object.keys(page.STATUS_LABEL)).toEqual([...domain.CAMPAIGN_STATUSES]);
    for (const [action, { from }] of Object.entries(domain.TRANSITIONS)) expect(page.ACTIONS[action as keyof typeof page.ACTIONS]).toEqual(from);
  });

  it('webhook event types and the masked header value', async () => {
    const types = await import('../../lib/web/dashboard/src/webhook-types.js');
    const webhook = await import('../../lib/domain/webhook.js');
    expect(types.EVENT_TYPES).toEqual(webhook.WEBHOOK_EVENT_TYPES);
    const tool = await import('../../lib/domain/tool.js');
    // tool-form.tsx is JSX; its MASK is checked through the source text.
    const { readFileSync } = await import('node:fs');
    expect(readFileSync('lib/web/dashboard/src/pages/tool-form.tsx', 'utf8')).toContain(`export const MASK = '${tool.MASK}';`);
  });

  it('the E.164 look the place-call form checks before asking the API', async () => {
    const { looksLikeE164 } = await import('../../lib/web/dashboard/src/phone.js');
    expect(['+14155552671', '+44 20 7946 0958', '+1 (415) 555-2671'].map(looksLikeE164)).toEqual([true, true, true]);
    expect(['4155552671', '+0123456789', '+1415', 'call me', '+1415555267100000'].map(looksLikeE164)).toEqual([false, false, false, false, false]);
  });
});
