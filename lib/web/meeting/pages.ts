import type { StandInNotice } from '../../domain/stand-ins.js';
import type { LinkOutcome, MeetingSession } from '../../services/meetings.js';
import { MEETING_ASSET_BASE } from './assets.js';

/**
 * The pages of a meeting link (docs/meeting.md). Server-rendered HTML; the call itself runs in
 * `meeting.js` and its two audio worklets, served from this origin (functions/meeting/assets.ts).
 *
 * One page, three ways in: the Join screen of a good link (`GET ?token=`), the room page a reload lands on
 * (`GET` without a token: the script rejoins with the tab's credential), and the answer to a Join form
 * posted without the script (the session is in the page, so the script, if it runs after all, starts the
 * call; without it the page says the call needs JavaScript). Link scanners fetch the Join screen and run or
 * submit nothing that would use the link: only the page's own POST does.
 */

/**
 * Nothing but this origin's script and stylesheet runs or loads; the page may open the streaming service's
 * WebSocket (another origin on AWS) and post the Join form to itself. The camera preview and the agent's
 * audio are MediaStreams and Web Audio, which no fetch directive governs.
 */
function contentSecurityPolicy(streamUrl: string): string {
  return [
    "default-src 'none'",
    // AudioWorklet modules are scripts: 'self' covers them.
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self' ${new URL(streamUrl).origin}`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Headers of every meeting page: the link is a secret, so no cache keeps a page and no Referer carries the
 * URL to anything; no framing; the CSP above; microphone and camera for this origin only.
 */
export function meetingPageHeaders(streamUrl: string): Record<string, string> {
  return {
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': contentSecurityPolicy(streamUrl),
    'permissions-policy': 'microphone=(self), camera=(self), geolocation=(), payment=()',
    'x-content-type-options': 'nosniff',
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string, withScript: boolean): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>` +
    `<link rel="stylesheet" href="${MEETING_ASSET_BASE}meeting.css">` +
    (withScript ? `<script type="module" src="${MEETING_ASSET_BASE}meeting.js"></script>` : '') +
    `</head><body>${body}</body></html>`
  );
}

const message = (title: string, text: string) =>
  page(title, `<main class="message"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main>`, false);

/** Pages for a link that does not work (the same for an open and a join). */
function refusedPage(outcome: LinkOutcome): { status: number; html: string } {
  switch (outcome.kind) {
    case 'used':
      return { status: 410, html: message('Link already used', 'This meeting link has already been used. Ask for a new link.') };
    case 'expired':
      return { status: 410, html: message('Link expired', 'This meeting link has expired. Ask for a new link.') };
    default:
      return { status: 404, html: message('Link not found', 'This meeting link is not valid.') };
  }
}

/** What the room needs to know on the server side; everything else the script learns on the way. */
interface Room {
  readonly callId: string;
  /** Unknown on the room page of a reload (the script has it from the join). */
  readonly agentName?: string;
  /** The Join screen: the link's token, posted back in the body (never in a URL). */
  readonly token?: string;
  /** The Join form was posted: the session to start with. */
  readonly session?: MeetingSession;
  /** The agent's simulated vendors (docs/provider-keys.md, "Simulated vendors"): said before and during the call. */
  readonly standIns?: StandInNotice;
}

/** Says what of the agent is simulated and how to make it real; on real vendors there is none. */
const standInsNotice = (notice: StandInNotice | undefined) =>
  notice
    ? `<aside id="stand-ins" class="stand-ins" aria-label="Simulated vendors"><p>${escapeHtml(notice.message)}</p></aside>`
    : '';

/** The tiles, controls and captions of the live call; hidden until the script starts it. */
const CALL_SECTION =
  '<section id="call" class="call" aria-labelledby="call-title" hidden>' +
  '<h2 id="call-title" class="visually-hidden">Call</h2>' +
  '<div class="tiles">' +
  '<figure class="tile agent" id="agent-tile" data-agent-level="0"><div class="orb" aria-hidden="true"><div class="ring"></div></div>' +
  '<figcaption id="agent-name"></figcaption></figure>' +
  '<figure class="tile self"><video id="self-view" muted playsinline autoplay></video><p class="note" id="self-note" hidden></p>' +
  '<figcaption>You</figcaption></figure>' +
  '</div>' +
  '<div class="controls">' +
  '<button type="button" id="sound" hidden>Resume audio</button>' +
  '<button type="button" id="mute" aria-pressed="false">Mute</button>' +
  '<button type="button" id="camera" aria-pressed="false">Camera off</button>' +
  '<button type="button" id="hangup" class="danger">Hang up</button>' +
  '</div>' +
  '<h3 class="captions-title" id="captions-title">Captions</h3>' +
  '<div id="captions" class="captions" role="log" tabindex="0" aria-labelledby="captions-title"></div>' +
  '</section>';

/**
 * The end screen. It alone says the call has ended: the state line above it is hidden once it shows, and
 * the script moves focus to its heading, so a screen reader reads the heading and the reason once.
 */
const ENDED_SECTION =
  '<section id="ended" class="ended" aria-labelledby="ended-title" hidden>' +
  '<div class="ended-mark" aria-hidden="true"></div>' +
  '<h2 id="ended-title" tabindex="-1">The call has ended</h2>' +
  '<p id="ended-reason" class="ended-reason"></p>' +
  '<p class="ended-next">You can close this page. To talk again, ask for a new meeting link.</p>' +
  '</section>';

function joinSection(room: Room, agent: string): string {
  const how = `Check your microphone, then join to start your call with ${agent}. This link works once: after you join, it cannot be used again.`;
  return (
    '<section id="join" class="join" aria-labelledby="join-title">' +
    '<h2 id="join-title" class="visually-hidden">Device check</h2>' +
    // The device check needs the script; without it (a browser would show bare video controls) it stays hidden.
    '<figure class="tile self" data-needs-script hidden><video id="preview" muted playsinline autoplay></video><p class="note" id="camera-note" hidden></p>' +
    '<figcaption>Camera preview</figcaption></figure>' +
    '<div class="meter" data-needs-script hidden><label for="mic-level">Microphone level</label><meter id="mic-level" min="0" max="1" value="0"></meter></div>' +
    `<p id="how">${escapeHtml(how)}</p>` +
    // Relative to /meeting/{callId}: the form posts to /meeting/{callId}/join on this origin.
    `<form id="join-form" method="post" action="${escapeHtml(encodeURIComponent(room.callId))}/join">` +
    `<input type="hidden" name="token" value="${escapeHtml(room.token ?? '')}">` +
    '<button type="submit" id="join-button" aria-describedby="how">Join</button></form>' +
    '</section>'
  );
}

/** The one meeting page: Join screen, room page or joined page, by what `room` holds. */
function roomPage(room: Room): string {
  const agent = escapeHtml(room.agentName ?? 'your agent');
  const title = room.agentName ? `Call with ${room.agentName}` : 'Your call';
  const session = room.session ? ` data-session="${escapeHtml(JSON.stringify(room.session))}"` : '';
  // Without the script nothing connects: the state line starts empty (the script fills it at once) and the
  // notice says what to do, before joining (the link works once) or after.
  const noscript = room.token !== undefined
    ? `This call runs in the page and needs JavaScript, which is off: turn it on and reload before you join (joining uses up the link).`
    : `This call runs in the page and needs JavaScript, which is off in this browser. Turn it on and ask for a new link to talk with ${room.agentName ?? 'the agent'}.`;
  const body =
    `<main id="meeting" data-call-id="${escapeHtml(room.callId)}"${session}>` +
    `<h1 id="title">${escapeHtml(title)}</h1>` +
    '<p id="state" class="state" role="status"></p>' +
    standInsNotice(room.standIns ?? room.session?.standIns) +
    `<noscript><p class="notice">${escapeHtml(noscript)}</p></noscript>` +
    '<section id="problem" class="problem" role="alert" aria-labelledby="problem-title" hidden><h2 id="problem-title"></h2><p id="problem-text"></p>' +
    '<button type="button" id="retry" hidden>Try again</button></section>' +
    (room.token !== undefined ? joinSection(room, agent) : '') +
    CALL_SECTION +
    ENDED_SECTION +
    '</main>';
  return page(title, body, true);
}

/**
 * GET /meeting/{callId}?token=: the Join screen of a good link, without using it. GET /meeting/{callId}
 * (no token): the room page, whose script rejoins with the tab's credential or says the link was used.
 */
export function openPage(callId: string, outcome: LinkOutcome | undefined, token: string | undefined): { status: number; html: string } {
  if (outcome === undefined) return { status: 200, html: roomPage({ callId }) };
  if (outcome.kind !== 'valid') return refusedPage(outcome);
  return { status: 200, html: roomPage({ callId, agentName: outcome.agentName, token: token ?? '', standIns: outcome.standIns }) };
}

/** POST /meeting/{callId}/join as a form: the joined page carrying its session, or why the link does not work. */
export function joinedPage(outcome: LinkOutcome): { status: number; html: string } {
  if (outcome.kind !== 'admitted') return refusedPage(outcome);
  const { session } = outcome;
  return { status: 200, html: roomPage({ callId: session.callId, agentName: session.agentName, session }) };
}
