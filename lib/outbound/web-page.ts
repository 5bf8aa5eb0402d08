import { pinnedFetch, type PinnedFetch } from './pinned-fetch.js';
import { ToolTargetRefusedError, type Resolver } from './target-guard.js';

/**
 * Fetching a web page (or a sitemap's pages) for a knowledge base (docs/knowledge.md, "Web pages"): every
 * request, the page, each redirect hop and robots.txt, goes through the SSRF guard with the address it checked pinned
 * (./pinned-fetch.ts), so a name that resolves to a private address, or a redirect to one, is refused.
 * robots.txt is read first and its rules for our user agent (or `*`) are obeyed (RFC 9309). Bounded: at
 * most {@link MAX_REDIRECTS} redirects, a byte cap and a time limit per request, HTML or plain text only.
 */

export const USER_AGENT = 'VoiceAgentPlatform-Knowledge/1.0';
const MAX_REDIRECTS = 3;

export class PageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PageRefusedError';
  }
}

export interface PageOptions {
  readonly allowedHosts: readonly string[];
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly resolver?: Resolver;
}

export interface FetchedPage {
  readonly url: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** Follows at most MAX_REDIRECTS redirects, each hop checked; returns the final response. */
async function get(fetcher: PinnedFetch, url: URL, timeoutMs: number, accept: string): Promise<{ url: URL; response: Response }> {
  let current = url;
  for (let hop = 0; ; hop += 1) {
    let response: Response;
    try {
      response = await fetcher(current, { headers: { 'user-agent': USER_AGENT, accept }, signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (error instanceof ToolTargetRefusedError) throw new PageRefusedError(`${current.host}: ${error.message}`);
      throw new PageRefusedError(`${current.host} could not be reached (${(error as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : (error as Error).message})`);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new PageRefusedError(`more than ${MAX_REDIRECTS} redirects`);
      current = new URL(location, current);
      if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new PageRefusedError('a redirect leaves http(s)');
      continue;
    }
    return { url: current, response };
  }
}

/**
 * RFC 9309: the group for our user agent, else `*`; the longest matching Allow/Disallow path wins (Allow on
 * a tie); `*` and `$` in paths. A robots.txt that is missing (4xx) allows everything; one that cannot be
 * read (5xx, unreachable) disallows everything, as the RFC says.
 */
export function robotsAllows(robots: string, path: string, agent = USER_AGENT): boolean {
  const groups: { agents: string[]; rules: { allow: boolean; path: string }[] }[] = [];
  let current: (typeof groups)[number] | undefined;
  let lastWasAgent = false;
  for (const raw of robots.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const field = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (field === 'user-agent') {
      if (!lastWasAgent || !current) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if ((field === 'allow' || field === 'disallow') && current) {
      lastWasAgent = false;
      if (value) current.rules.push({ allow: field === 'allow', path: value });
    } else lastWasAgent = false;
  }
  const token = agent.split('/')[0]!.toLowerCase();
  const mine = groups.filter((g) => g.agents.some((a) => a !== '*' && token.startsWith(a)));
  const chosen = mine.length ? mine : groups.filter((g) => g.agents.includes('*'));
  let best: { allow: boolean; length: number } | undefined;
  for (const rule of chosen.flatMap((g) => g.rules)) {
    const pattern = new RegExp(`^${rule.path.replace(/[.+?^{}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\\\$$|\$$/, '$')}`);
    if (!pattern.test(path)) continue;
    if (!best || rule.path.length > best.length || (rule.path.length === best.length && rule.allow)) best = { allow: rule.allow, length: rule.path.length };
  }
  return best?.allow ?? true;
}

async function readCapped(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new PageRefusedError(`the page is over ${maxBytes} bytes`);
  }
  try {
    return Buffer.from(await response.arrayBuffer());
  } catch (error) {
    throw new PageRefusedError(`the page could not be read: ${(error as Error).message}`);
  }
}

/** The robots.txt rules of a site (empty when it has none): 5xx or unreachable closes the site (RFC 9309). */
async function robotsOf(fetcher: PinnedFetch, url: URL, timeoutMs: number): Promise<string> {
  const robots = await get(fetcher, new URL('/robots.txt', url), timeoutMs, 'text/plain');
  if (robots.response.status >= 500) {
    await robots.response.body?.cancel();
    throw new PageRefusedError(`robots.txt of ${url.host} answered ${robots.response.status}; the site is treated as closed to crawlers`);
  }
  if (!robots.response.ok) {
    await robots.response.body?.cancel();
    return '';
  }
  return (await readCapped(robots.response, 512 * 1024)).toString('utf8');
}

/** Fetches one URL allowed by `rules`: HTML, text, or (for a sitemap) XML. */
async function fetchAllowed(fetcher: PinnedFetch, url: URL, rules: string, options: PageOptions): Promise<FetchedPage> {
  if (!robotsAllows(rules, url.pathname + url.search)) throw new PageRefusedError(`robots.txt of ${url.host} disallows ${url.pathname}`);
  const page = await get(fetcher, url, options.timeoutMs, 'text/html, text/plain;q=0.9, application/xml;q=0.8');
  if (!page.response.ok) {
    await page.response.body?.cancel();
    throw new PageRefusedError(`the page answered ${page.response.status}`);
  }
  const contentType = (page.response.headers.get('content-type') ?? '').toLowerCase();
  if (!/^(text\/html|application\/xhtml\+xml|text\/plain|text\/markdown|application\/xml|text\/xml)/.test(contentType)) {
    await page.response.body?.cancel();
    throw new PageRefusedError(`the page is ${contentType || 'of no declared type'}, not HTML, text or a sitemap`);
  }
  return { url: page.url.href, contentType, body: await readCapped(page.response, options.maxBytes) };
}

/** Pages a sitemap brings in at most: one document stays one knowledge source a person can re-index. */
export const MAX_SITEMAP_PAGES = 50;
/** A sitemap's pages are fetched for at most this long, well inside the consumer's 120 s; the rest are skipped. */
export const SITEMAP_BUDGET_MS = 60_000;

/** The `<loc>` URLs of a sitemap's `<urlset>` (sitemaps.org protocol); a `<sitemapindex>` is not followed. */
export function sitemapUrls(xml: string): string[] {
  if (!/<urlset[\s>]/i.test(xml)) return [];
  return [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

export interface FetchedSite {
  /** The page, or the sitemap itself. */
  readonly first: FetchedPage;
  /** A sitemap's pages (same origin, robots-allowed, fetched): empty for a single page. */
  readonly pages: readonly FetchedPage[];
  /** A sitemap's URLs left out, and why (another site, robots.txt, an error). */
  readonly skipped: readonly { readonly url: string; readonly why: string }[];
}

/**
 * A knowledge source by URL: one page, or a sitemap and its pages. robots.txt obeyed, every request
 * SSRF-checked (pinned), a sitemap's pages only on its own origin, at most {@link MAX_SITEMAP_PAGES}.
 */
export async function fetchSite(url: URL, options: PageOptions): Promise<FetchedSite> {
  const fetcher = pinnedFetch({ allowedHosts: options.allowedHosts, maxResponseBytes: options.maxBytes, ...(options.resolver ? { resolver: options.resolver } : {}) });
  const rules = await robotsOf(fetcher, url, options.timeoutMs);
  const first = await fetchAllowed(fetcher, url, rules, options);
  if (!/xml/.test(first.contentType)) return { first, pages: [], skipped: [] };
  const listed = sitemapUrls(first.body.toString('utf8'));
  if (listed.length === 0) throw new PageRefusedError('the XML is not a sitemap of pages (a <urlset> with <loc> entries)');
  const pages: FetchedPage[] = [];
  const skipped: { url: string; why: string }[] = [];
  const until = Date.now() + SITEMAP_BUDGET_MS;
  for (const loc of listed) {
    let target: URL;
    try {
      target = new URL(loc);
    } catch {
      skipped.push({ url: loc.slice(0, 200), why: 'not a URL' });
      continue;
    }
    if (target.origin !== new URL(first.url).origin) skipped.push({ url: target.href, why: 'another site' });
    else if (pages.length >= MAX_SITEMAP_PAGES) skipped.push({ url: target.href, why: `past ${MAX_SITEMAP_PAGES} pages` });
    else if (Date.now() > until) skipped.push({ url: target.href, why: `past the ${SITEMAP_BUDGET_MS / 1000} s budget` });
    else {
      try {
        const page = await fetchAllowed(fetcher, target, rules, options);
        if (/xml/.test(page.contentType)) skipped.push({ url: target.href, why: 'a nested sitemap' });
        else pages.push(page);
      } catch (error) {
        if (!(error instanceof PageRefusedError)) throw error;
        skipped.push({ url: target.href, why: error.message });
      }
    }
  }
  if (pages.length === 0) throw new PageRefusedError(`no page of the sitemap could be read (${skipped.slice(0, 3).map((s) => `${s.url}: ${s.why}`).join('; ')})`);
  return { first, pages, skipped };
}
