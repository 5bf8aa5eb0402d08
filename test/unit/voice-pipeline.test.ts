/**
 * Invariant: the pure parts of the voice pipeline decide correctly on their own — system frames overtake
 * queued data, which keeps its order; the call state machine refuses transitions its
 * table does not allow; the turn detector ends a turn on endpointing or the utterance-end fallback;
 * the phrase splitter flushes at phrase ends with a minimum length;
 * a speech handle counts as heard only phrases whose marks were echoed before an interruption, plus the
 * words heard of the phrase it cut (marked); a paused audio out takes back exactly the bytes not yet played
 * and sends them again on resume, ignoring the marks Twilio echoes for the flush; prompt
 * variables come from the contact; the recording is a valid stereo WAV on the call timeline.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Contact } from '../../lib/domain/contact.js';
import { mulawToPcm, pcmToMulaw } from '../../lib/vendors/shared/mulaw.js';
import { CallRecorder } from '../../streaming-service/src/end/recording.js';
import { AudioOut } from '../../streaming-service/src/session/audio-out.js';
import { FrameQueue, type Frame } from '../../streaming-service/src/frames.js';
import { PhraseSplitter } from '../../streaming-service/src/session/phrase-splitter.js';
import { contactVariables, fillTemplate } from '../../streaming-service/src/conversation/prompt.js';
import { heardWords, INTERRUPTED_MARKER, SpeechHandle } from '../../streaming-service/src/session/speech-handle.js';
import { CallStateMachine, InvalidTransitionError } from '../../streaming-service/src/session/state.js';
import { TurnDetector } from '../../streaming-service/src/session/turn-detector.js';
import { turnFigures } from '../../streaming-service/src/call/latency.js';
import { twilioTransport } from '../../streaming-service/src/transport/twilio.js';
import { PHONE_AUDIO } from '../../lib/vendors/shared/audio-format.js';

describe('frame queue', () => {
  it('serves system frames before queued data, and data in arrival order', async () => {
    const q = new FrameQueue<Frame>();
    q.push({ kind: 'caller_audio', audio: new Uint8Array(1), timestampMs: 0, atMs: 1 });
    q.push({ kind: 'transcript', text: 'hi', isFinal: true, speechFinal: false, atMs: 3 });
    q.push({ kind: 'speech_started', atMs: 4 });
    expect(q.shift()?.kind).toBe('speech_started');
    expect([q.shift()?.kind, q.shift()?.kind, q.shift()]).toEqual(['caller_audio', 'transcript', undefined]);
    const it = q[Symbol.asyncIterator]();
    const next = it.next();
    q.push({ kind: 'mark_echo', name: 'h1.0', atMs: 5 });
    expect((await next).value.kind).toBe('mark_echo');
    q.close();
    expect((await it.next()).done).toBe(true);
  });
});

describe('call state machine', () => {
  it('follows its table and refuses anything else', () => {
    const changes: string[] = [];
    const sm = new CallStateMachine((c) => changes.push(`${c.from}>${c.to}`));
    sm.go('greeting');
    sm.go('listening');
    sm.go('thinking');
    sm.go('speaking');
    sm.go('listening');
    expect(() => sm.go('speaking')).toThrow(InvalidTransitionError);
    sm.go('transferring');
    expect(() => sm.go('listening')).toThrow(InvalidTransitionError);
    sm.go('ending');
    expect(sm.isEnding).toBe(true);
    expect(() => sm.go('listening')).toThrow(InvalidTransitionError);
    expect(changes).toEqual([
      'connecting>greeting',
      'greeting>listening',
      'listening>thinking',
      'thinking>speaking',
      'speaking>listening',
      'listening>transferring',
      'transferring>ending',
    ]);
  });
});

const t = (text: string, isFinal: boolean, speechFinal = false, atMs = 0): Frame => ({ kind: 'transcript', text, isFinal, speechFinal, atMs });

describe('turn detector', () => {
  it('ends a turn on speech_final with the final segments in order', () => {
    const d = new TurnDetector();
    expect(d.onFrame(t('I would', false))).toEqual([]);
    expect(d.onFrame(t('I would like', true))).toEqual([]);
    expect(d.onFrame(t('a table', true, true, 42))).toEqual([{ type: 'turn_end', text: 'I would like a table', via: 'speech_final', atMs: 42 }]);
    expect(d.pendingText).toBe('');
  });

  it('falls back to utterance_end, using the last interim when no final came', () => {
    const d = new TurnDetector();
    d.onFrame(t('noisy line', false));
    expect(d.onFrame({ kind: 'utterance_end', atMs: 7 })).toEqual([{ type: 'turn_end', text: 'noisy line', via: 'utterance_end', atMs: 7 }]);
    expect(d.onFrame({ kind: 'utterance_end', atMs: 8 })).toEqual([]);
  });
});

describe('phrase splitter', () => {
  it('flushes at phrase ends once a phrase is long enough, across token boundaries', () => {
    const s = new PhraseSplitter({ minChars: 10, firstMinChars: 10 });
    const out: string[] = [];
    for (const tok of ['Hi', '! ', 'Sure', ' thing', '.', ' It costs 3', '.5 dollars', '; ok', '?', ' Line\n', 'end']) out.push(...s.push(tok));
    // "ok?" and "Line" are under the minimum, so they wait for more text and leave with the rest.
    expect(out).toEqual(['Hi! Sure thing.', 'It costs 3.5 dollars;']);
    expect(s.flush()).toBe('ok? Line\nend');
    expect(s.flush()).toBeUndefined();
  });

  it('ends the opening phrases at a clause or after a few words, the later ones only at sentence ends', () => {
    const s = new PhraseSplitter();
    // "So," is under the first phrase's minimum; commas cut until 40 characters went to speech, then no more.
    expect(s.push('So, we are open tomorrow, from nine')).toEqual(['So, we are open tomorrow,']);
    expect(s.push(', until six, and on Sunday, too. Anything')).toEqual(['from nine,', 'until six,', 'and on Sunday, too.']);
    expect(s.flush()).toBe('Anything');
    // "Sure." goes alone; a long sentence after it is cut at its clauses too, so no silence opens between them.
    expect(new PhraseSplitter().push('Sure. We have a mushroom risotto, a grilled sea bass with lemon, and a tart.')).toEqual(['Sure.', 'We have a mushroom risotto,', 'a grilled sea bass with lemon,', 'and a tart.']);
    // "Yes." is under the first phrases' minimum: it leaves with what follows.
    const sure = new PhraseSplitter();
    expect(sure.push('Sure. Yes. We open at nine.')).toEqual(['Sure.', 'Yes. We open at nine.']);
    // No clause end in the first eight words: the phrase is cut at a word boundary, never inside a word.
    const long = new PhraseSplitter();
    expect(long.push('We have tables for two people at seven and at ei')).toEqual(['We have tables for two people at seven and at']);
    expect(long.push('ght thirty tonight')).toEqual([]);
    expect(long.flush()).toBe('ei' + 'ght thirty tonight');
    // A comma inside a number is no clause end.
    expect(new PhraseSplitter().push('It costs 1,000 dollars, plus tax')).toEqual(['It costs 1,000 dollars,']);
  });

  it('does not cut inside a URL or a number', () => {
    const s = new PhraseSplitter({ minChars: 1 });
    expect(s.push('Visit example.com today: thanks')).toEqual(['Visit example.com today:']);
    expect(s.push(' Pi is 3.')).toEqual([]);
    expect(s.push('14. Done')).toEqual(['thanks Pi is 3.14.']);
  });
});

describe('speech handle', () => {
  it('counts as heard only phrases echoed before the interruption', async () => {
    const h = new SpeechHandle('h1', 'reply');
    const [a, b, c] = [h.addPhrase('One.', 0), h.addPhrase('Two.', 0), h.addPhrase('Three.', 1)];
    h.markSent(a!);
    h.markSent(b!);
    expect(h.onMarkEcho('h1.0')).toBe(true);
    expect(h.onMarkEcho('other.0')).toBe(false);
    expect(h.interrupt(10)).toBe(true);
    expect(h.interrupt(11)).toBe(false);
    expect(h.signal.aborted).toBe(true);
    expect(c!.status).toBe('dropped');
    expect(h.settled).toBe(false);
    const settled = h.whenSettled();
    // Twilio echoes the outstanding mark after `clear`: flushed, not played.
    h.onMarkEcho('h1.1');
    await settled;
    // Cut after "One.", before "Two." played: the caller heard one phrase whole, then the agent broke off.
    expect(h.playedText()).toBe('One.—');
    expect(h.playedText(1)).toBe('');
    expect(b!.status).toBe('dropped');
  });

  it('settles when producing is done and every phrase played; abandon drops unconfirmed ones', async () => {
    const h = new SpeechHandle('h2', 'line');
    const p = h.addPhrase('Bye.', 0);
    h.markSent(p);
    h.finishProducing();
    const quiet = h.whenQuiet();
    h.onMarkEcho('h2.0');
    await quiet;
    expect(h.settled).toBe(true);
    const h3 = new SpeechHandle('h3', 'reply');
    h3.markSent(h3.addPhrase('Never confirmed.', 0));
    h3.abandon();
    expect(h3.settled).toBe(true);
    expect(h3.playedText()).toBe('');
  });
});

describe('prompt variables', () => {
  const contact: Contact = {
    _id: 'ct_1',
    contactName: 'Ada Lovelace',
    phoneNumber: '+14155552671',
    region: 'US',
    workspaceId: 'ws_1',
    externalFields: { plan: 'gold', visits: 3 },
    createdAt: '',
    updatedAt: '',
  };
  it('fills contactName and every external field; unknown variables become empty', () => {
    const vars = contactVariables(contact);
    expect(fillTemplate('Hi {{contactName}} ({{ plan }}, {{visits}} visits){{unknown}}.', vars)).toBe('Hi Ada Lovelace (gold, 3 visits).');
    expect(fillTemplate('Hi {{contactName}}!', contactVariables(undefined))).toBe('Hi !');
  });
});

describe('paced audio out', () => {
  it('sends at most the lead ahead at once, keeps marks behind their audio, and clears what is queued', () => {
    const sent: { event: string; bytes?: number; name?: string }[] = [];
    const out = new AudioOut(
      twilioTransport('MZ1', {
        send: (m) => {
          const msg = JSON.parse(m) as { event: string; media?: { payload: string }; mark?: { name: string } };
          sent.push({ event: msg.event, bytes: msg.media ? Buffer.from(msg.media.payload, 'base64').length : undefined, name: msg.mark?.name });
        },
        close: () => undefined,
      }),
    );
    // One second of audio, then its mark.
    out.enqueueAudio('h1', new Uint8Array(8_000).fill(0x7f));
    out.enqueueMark('h1', 'h1.0');
    const media = sent.filter((m) => m.event === 'media');
    // 300 ms lead: 15 frames of 20 ms go out at once, in one message (one wake's frames travel together);
    // the rest waits for playback.
    expect(media).toEqual([{ event: 'media', bytes: 2_400, name: undefined }]);
    expect(sent.some((m) => m.event === 'mark')).toBe(false);
    expect(out.bufferedMs()).toBeGreaterThan(250);
    // A barge-in: the queued mark is handed back (never sent), Twilio is told to clear.
    expect(out.clear('h1')).toEqual(['h1.0']);
    expect(sent.at(-1)).toEqual({ event: 'clear', bytes: undefined, name: undefined });
    expect(out.isBusy()).toBe(false);
    // With nothing buffered, audio and its mark go out at once.
    out.enqueueAudio('h2', new Uint8Array(320));
    out.enqueueMark('h2', 'h2.0');
    expect(sent.slice(-2)).toEqual([
      { event: 'media', bytes: 320, name: undefined },
      { event: 'mark', bytes: undefined, name: 'h2.0' },
    ]);
    out.close();
  });
});

describe('paced audio out, in step with playback', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends each wake\'s frames as one message, in the order of the audio', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const payloads: Uint8Array[] = [];
    const out = new AudioOut(
      twilioTransport('MZ1', {
        send: (m) => {
          const msg = JSON.parse(m) as { media?: { payload: string } };
          if (msg.media) payloads.push(new Uint8Array(Buffer.from(msg.media.payload, 'base64')));
        },
        close: () => undefined,
      }),
    );
    const audio = Uint8Array.from({ length: 8_000 }, (_, i) => i % 251);
    out.enqueueAudio('h1', audio);
    // The lead at once, then every 60 ms (the batch) the 60 ms of room playback opened: three frames.
    vi.advanceTimersByTime(120);
    expect(payloads.map((p) => p.length)).toEqual([2_400, 480, 480]);
    expect(new Uint8Array(Buffer.concat(payloads))).toEqual(audio.subarray(0, 3_360));
    out.close();
  });
});

describe('audio out pause and resume (false interruptions)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const recorder = () => {
    const sent: { event: string; payload?: Uint8Array; name?: string }[] = [];
    const send = (m: string) => {
      const msg = JSON.parse(m) as { event: string; media?: { payload: string }; mark?: { name: string } };
      sent.push({ event: msg.event, payload: msg.media ? new Uint8Array(Buffer.from(msg.media.payload, 'base64')) : undefined, name: msg.mark?.name });
    };
    return { sent, send };
  };

  it('takes back exactly what was not played, sends it again on resume, and ignores the flush echoes', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { sent, send } = recorder();
    const out = new AudioOut(twilioTransport('MZ1', { send, close: () => undefined }));
    // 200 ms of audio whose every byte says where it is, then its mark: all of it goes out at once.
    const audio = Uint8Array.from({ length: 1_600 }, (_, i) => i % 251);
    out.enqueueAudio('h1', audio);
    out.enqueueMark('h1', 'h1.0');
    expect(sent.map((m) => m.event).at(-1)).toBe('mark');
    vi.advanceTimersByTime(50);
    out.pause();
    expect(sent.at(-1)!.event).toBe('clear');
    expect(out.heardBytes('h1')).toBe(400);
    // Twilio echoes the flushed mark: not a play.
    expect(out.acceptEcho('h1.0')).toBe(false);
    const before = sent.length;
    vi.advanceTimersByTime(1_000);
    expect(sent.length).toBe(before);
    out.resume();
    const again = sent.slice(before);
    const resent = Buffer.concat(again.filter((m) => m.event === 'media').map((m) => m.payload!));
    expect(new Uint8Array(resent)).toEqual(audio.subarray(400));
    expect(again.at(-1)).toMatchObject({ event: 'mark', name: 'h1.0' });
    // The mark's real echo counts.
    expect(out.acceptEcho('h1.0')).toBe(true);
    vi.advanceTimersByTime(200);
    expect(out.heardBytes('h1')).toBe(1_600);
    out.close();
  });

  it('keeps the words of the phrase cut mid-way, marked, and counts a phrase heard to its end', () => {
    expect(heardWords('Our specials tonight are a mushroom risotto.', 0.5)).toBe('Our specials tonight');
    expect(heardWords('Our specials tonight.', 0.05)).toBe('');
    const h = new SpeechHandle('h9', 'reply');
    const a = h.addPhrase('Sure thing.', 0);
    a.audioBytes = 800;
    h.markSent(a);
    const b = h.addPhrase('Our specials tonight are a mushroom risotto.', 0);
    b.audioBytes = 3_000;
    h.markSent(b);
    // 800 + half of the second phrase heard; the first phrase's echo had not come back yet.
    h.interrupt(performance.now(), 800 + 1_500);
    expect(h.playedText()).toBe(`Sure thing. Our specials tonight${INTERRUPTED_MARKER}`);
  });
});

describe('recording and cost', () => {
  it('puts the caller left and the agent right on one timeline, cut at a clear', () => {
    const r = new CallRecorder(60, PHONE_AUDIO);
    const loud = pcmToMulaw(Int16Array.from({ length: 80 }, () => 10_000));
    r.addCaller(mulawToPcm(loud), 0); // samples 0..79 (the session hands the recorder decoded samples)
    r.addAgent(loud, 20); // samples 160..239
    r.addAgent(loud, 40); // samples 320..399, cut below
    r.cutAgent(45); // sample 360
    const wav = r.toWav();
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.readUInt16LE(22)).toBe(2);
    const frames = (wav.length - 44) / 4;
    // 45 ms = sample 360: the second agent piece is cut there.
    expect(frames).toBe(360);
    expect(r.isEmpty).toBe(false);
    const at = (frame: number, ch: 0 | 1) => wav.readInt16LE(44 + frame * 4 + ch * 2);
    expect(at(10, 0)).toBeGreaterThan(9_000);
    expect(at(10, 1)).toBe(0);
    expect(at(200, 1)).toBeGreaterThan(9_000);
    expect(at(200, 0)).toBe(0);
    expect(at(350, 1)).toBeGreaterThan(9_000);
  });


  it("computes our overhead as what is left after the vendors' shares", () => {
    const f = turnFigures({ handleId: 'h', sttFinalAtMs: 1000, sttMs: 320, llmRequestAtMs: 1001, llmFirstTokenAtMs: 1201, llmFirstPhraseAtMs: 1251, ttsRequestAtMs: 1252, ttsFirstByteAtMs: 1352, firstAudioAtMs: 1353 });
    expect(f).toEqual({
      sttMs: 320, llmFirstTokenMs: 200, llmFirstPhraseMs: 50, ttsFirstByteMs: 100, overheadMs: 3,
      // The caller waited from 680 (their last voiced audio) to 1353; the 1 ms gaps are ours.
      callerWait: { totalMs: 673, endOfTurnMs: 320, llmFirstTokenMs: 200, llmFirstPhraseMs: 50, ttsFirstByteMs: 100, otherMs: 3 },
    });
  });
});
