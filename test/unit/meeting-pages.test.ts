/**
 * Invariant: the meeting pages put what they are given into HTML safely and allow nothing they do not
 * need: an agent's name or a token with markup in it is text, never markup; the joined page's session
 * survives the trip through its attribute exactly; the room page (no token) carries no form and no token;
 * the CSP allows scripts and styles from this origin only (no inline) and sockets to this origin and the
 * streaming service's, nothing else.
 */
import { describe, expect, it } from 'vitest';
import type { MeetingSession } from '../../lib/services/meetings.js';
import { joinedPage, meetingPageHeaders, openPage } from '../../lib/web/meeting/pages.js';

const HOSTILE = `Ava "<script>alert(1)</script>' & co`;
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

describe('meeting pages', () => {
  it('an agent name or token with markup is text', () => {
    const { status, html } = openPage('call_1', { kind: 'valid', callId: 'call_1', workspaceId: 'ws_1', agentName: HOSTILE }, `t"><img src=x>`);
    expect(status).toBe(200);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x>');
    expect(html).toContain('Call with Ava &#34;&#60;script&#62;');
    // The only scripts are this origin's module.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="/meeting/assets/meeting.js">']);
  });

  it("the joined page carries the session exactly, in an attribute the script reads", () => {
    const session: MeetingSession = { callId: 'call_1', agentName: HOSTILE, streamUrl: 'wss://s.example.com/web-stream', credential: 'wss1.a.b', expiresAt: '2026-11-23T15:20:00.000Z' };
    const { status, html } = joinedPage({ kind: 'admitted', session });
    expect(status).toBe(200);
    const attribute = /data-session="([^"]*)"/.exec(html)![1]!;
    expect(JSON.parse(unescape(attribute))).toEqual(session);
    expect(html).not.toContain('join-form');
  });

  it('the room page (no token) has no form and no token; refused links are pages of their own', () => {
    const { status, html } = openPage('call_1', undefined, undefined);
    expect(status).toBe(200);
    expect(html).not.toContain('<form');
    expect(html).not.toContain('token');
    expect(html).toContain('data-call-id="call_1"');
    expect(openPage('call_1', { kind: 'used' }, 'x').status).toBe(410);
    expect(openPage('call_1', { kind: 'expired' }, 'x').status).toBe(410);
    expect(openPage('call_1', { kind: 'unknown' }, 'x').status).toBe(404);
    expect(openPage('call_1', { kind: 'used' }, 'x').html).not.toContain('<script');
  });

  it('the CSP: own scripts and styles only, sockets to this origin and the streaming service', () => {
    const headers = meetingPageHeaders('wss://stream.example.com/web-stream');
    const csp = headers['content-security-policy']!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("connect-src 'self' wss://stream.example.com;");
    expect(csp).not.toContain('unsafe');
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['permissions-policy']).toContain('microphone=(self)');
  });
});
