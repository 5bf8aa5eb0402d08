/**
 * Invariant: caller sound over the agent interrupts it only when it is real speech (the minimum duration
 * by the local VAD and the minimum words by the recognizer, backchannels not counted); sound without
 * enough words pauses the agent and resumes it after the false-interruption timeout (even while a wordless
 * sound goes on); a backchannel turn over the agent is not answered; a short answer while the agent is
 * silent is. The WebRTC VAD loads from
 * the installed package (no network) and finds speech in speech, none in silence or in speech 30 dB down
 * (line echo of the agent), whatever the chunking.
 */
import { describe, expect, it } from 'vitest';
import { speech } from '../../lib/local/callers/simulated-caller.js';
import { mulawToPcm } from '../../lib/vendors/shared/mulaw.js';
import {
  DEFAULT_INTERRUPTION,
  InterruptionPolicy,
  interruptionSettings,
  transcriptWords,
  type AgentActivity,
} from '../../streaming-service/src/session/interruption.js';
import { loadFvad, VoiceActivity } from '../../streaming-service/src/session/vad.js';

const SPEAKING: AgentActivity = { active: true, audible: true };
const THINKING: AgentActivity = { active: true, audible: false };
const IDLE: AgentActivity = { active: false, audible: false };
const types = (actions: readonly { type: string }[]) => actions.map((a) => a.type);

/** Feeds `ms` of VAD speech in 20 ms steps and returns every action, in order. */
function speak(p: InterruptionPolicy, ms: number, agent: AgentActivity = SPEAKING, end = true): string[] {
  const out = types(p.onSpeechStart(agent));
  for (let t = 20; t <= ms; t += 20) out.push(...types(p.onSpeechProgress(t, agent)));
  if (end) out.push(...types(p.onSpeechEnd(ms, agent)));
  return out;
}

describe('a reply held before its first sound', () => {
  const REPLYING: AgentActivity = { active: true, audible: false, replying: true };
  const HELD: AgentActivity = { active: true, audible: true, replying: true };

  it('is held while the caller speaks again, and a word of theirs cancels it; their turn is answered', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(types(p.onSpeechStart(REPLYING))).toEqual(['pause', 'arm_timer']);
    expect(types(p.onSpeechProgress(200, HELD))).toEqual([]);
    expect(types(p.onTranscript('And', HELD))).toEqual(['cancel_timer', 'interrupt']);
    expect(p.onTurnEnd('And croissants?', THINKING).answer).toBe(true);
  });

  it('plays HOLD_MAX_MS after the hold without a word, even while sounds keep starting, and holds no more that turn', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(types(p.onSpeechStart(REPLYING))).toEqual(['pause', 'arm_timer']);
    expect(types(p.onSpeechEnd(120, HELD))).toEqual([]);
    // A beep every 500 ms: each one leaves the hold's wait running.
    expect(types(p.onSpeechStart(HELD))).toEqual([]);
    expect(types(p.onTimeout())).toEqual(['resume']);
    expect(types(p.onSpeechEnd(120, SPEAKING))).toEqual([]);
    expect(types(p.onSpeechStart(REPLYING))).toEqual([]);
    // The caller's next turn may hold the next reply again.
    p.onTurnEnd('Tomorrow.', THINKING);
    expect(types(p.onSpeechStart(REPLYING))).toEqual(['pause', 'arm_timer']);
  });

  it('is held when it starts after the caller began their next sentence, before the recognizer closed the last', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    speak(p, 800, IDLE);
    p.onTranscript('I want to book a table.', IDLE);
    // The next sentence is under way when the first turn closes; the reply to it starts a moment later.
    expect(speak(p, 100, IDLE, false)).toEqual([]);
    expect(p.onTurnEnd('I want to book a table.', IDLE).answer).toBe(true);
    expect(types(p.onSpeechProgress(120, REPLYING))).toEqual(['pause', 'arm_timer']);
    expect(types(p.onTranscript('It', HELD))).toEqual(['cancel_timer', 'interrupt']);
  });

  it('is not held for sound that was going on when the words came (a noisy line)', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(speak(p, 800, IDLE, false)).toEqual([]);
    p.onTranscript('What time do you open?', IDLE);
    expect(p.onTurnEnd('What time do you open?', IDLE).answer).toBe(true);
    expect(types(p.onSpeechProgress(1_000, REPLYING))).toEqual([]);
  });

  it('is not held when audible, for a greeting or line, or when false interruptions are not resumed', () => {
    expect(types(new InterruptionPolicy(DEFAULT_INTERRUPTION).onSpeechStart({ ...SPEAKING, replying: true }))).toEqual([]);
    expect(types(new InterruptionPolicy(DEFAULT_INTERRUPTION).onSpeechStart(THINKING))).toEqual([]);
    expect(types(new InterruptionPolicy({ ...DEFAULT_INTERRUPTION, resumeFalseInterruption: false }).onSpeechStart(REPLYING))).toEqual([]);
  });
});

describe('interruption policy', () => {
  it('ignores an "uh-huh" over the agent: no pause, no interruption, not answered', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(speak(p, 360)).toEqual([]);
    expect(types(p.onTranscript('Uh-huh.', SPEAKING))).toEqual([]);
    expect(p.onTurnEnd('Uh-huh.', SPEAKING)).toEqual({ answer: false, actions: [] });
  });

  it('stops at once for a stop word at the start of a short turn, and answers it', () => {
    for (const said of ['Stop.', 'Wait!', 'Hold on', 'No, Tuesday.']) {
      const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
      // 300 ms of speech: under the minimum duration, and one or two words: under the minimum words.
      expect(speak(p, 300, SPEAKING, false)).toEqual([]);
      expect(types(p.onTranscript(said, SPEAKING)), said).toEqual(['interrupt']);
      expect(p.onTurnEnd(said, SPEAKING).answer, said).toBe(true);
    }
  });

  it('hears a stop word only where the turn starts, and takes the agent\'s own list', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(types(p.onTranscript('Okay no.', SPEAKING))).toEqual([]);
    expect(p.onTurnEnd('Okay no.', SPEAKING).answer).toBe(false);
    // An interim that is a stop phrase's first word only ("hold") does not stop the agent.
    const q = new InterruptionPolicy(interruptionSettings({ stop_words: ['hold on', 'basta'] }));
    expect(types(q.onTranscript('Hold', SPEAKING))).toEqual([]);
    expect(types(q.onTranscript('Hold on', SPEAKING))).toEqual(['interrupt']);
    const r = new InterruptionPolicy(interruptionSettings({ stop_words: ['basta'] }));
    expect(types(r.onTranscript('Stop.', SPEAKING))).toEqual([]);
    expect(types(r.onTranscript('Basta!', SPEAKING))).toEqual(['interrupt']);
    // Each language's own list (call/phrases.ts), unspaced scripts matched as a prefix, combining marks kept.
    const es = new InterruptionPolicy(interruptionSettings({}, { backchannels: ['vale'], stopWords: ['espere', 'un momento'] }));
    expect(types(es.onTranscript('Un momento, por favor', SPEAKING))).toEqual(['interrupt']);
    const ja = new InterruptionPolicy(interruptionSettings({}, { backchannels: ['はい'], stopWords: ['待って'] }));
    expect(types(ja.onTranscript('待ってください', SPEAKING))).toEqual(['interrupt']);
    const hi = new InterruptionPolicy(interruptionSettings({}, { backchannels: ['हाँ'], stopWords: ['रुकिए'] }));
    expect(hi.realWords('हाँ')).toBe(0);
    expect(types(hi.onTranscript('रुकिए, एक मिनट', SPEAKING))).toEqual(['interrupt']);
    // Nothing to stop when the agent is not talking.
    expect(types(new InterruptionPolicy(DEFAULT_INTERRUPTION).onTranscript('Stop.', IDLE))).toEqual([]);
  });

  it('does not cut the agent for a cough with no words', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(speak(p, 120)).toEqual([]);
    expect(p.isPaused).toBe(false);
  });

  it('pauses on long sound without words, then resumes after the false-interruption timeout', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    const actions = speak(p, 900, SPEAKING, false);
    expect(actions).toEqual(['pause', 'arm_timer']);
    // The wait runs from the pause: the sound's end does not put it off.
    expect(p.onSpeechEnd(900, SPEAKING)).toEqual([]);
    expect(types(p.onTimeout())).toEqual(['cancel_timer', 'resume']);
    expect(p.isPaused).toBe(false);
  });

  it('the wait runs from the pause while no word is heard; once one is, it starts over with the caller\'s speech', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(speak(p, 600)).toEqual(['pause', 'arm_timer']);
    // A sound starting again (a beep every half second) does not put the resume off.
    expect(p.onSpeechStart(SPEAKING)).toEqual([]);
    expect(p.onSpeechEnd(100, SPEAKING)).toEqual([]);
    expect(types(p.onTimeout())).toEqual(['cancel_timer', 'resume']);
    // A word heard: the wait starts over at each onset and end, and waits while the caller goes on.
    const q = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    speak(q, 600, SPEAKING, false);
    expect(types(q.onTranscript('Well', SPEAKING))).toEqual([]);
    expect(q.onTimeout()).toEqual([{ type: 'arm_timer', ms: DEFAULT_INTERRUPTION.falseInterruptionTimeoutMs }]);
    expect(q.isPaused).toBe(true);
    expect(types(q.onSpeechEnd(700, SPEAKING))).toEqual(['arm_timer']);
    expect(types(q.onSpeechStart(SPEAKING))).toEqual(['arm_timer']);
    expect(types(q.onTranscript('Well I wanted', SPEAKING))).toEqual(['cancel_timer', 'interrupt']);
  });

  it('sound that never ends and has no word (a television, a beeping device) pauses once, then resumes', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(speak(p, 900, SPEAKING, false)).toEqual(['pause', 'arm_timer']);
    // The timer fires with the VAD still hearing sound and the recognizer no word: noise, the agent goes on.
    expect(types(p.onTimeout())).toEqual(['cancel_timer', 'resume']);
    expect(p.isPaused).toBe(false);
    // The same sound goes on: no pause again, however long it lasts.
    for (let t = 920; t <= 5_000; t += 20) expect(p.onSpeechProgress(t, SPEAKING)).toEqual([]);
    // Words over it still interrupt.
    expect(types(p.onTranscript('Excuse me', SPEAKING))).toEqual(['interrupt']);
    // Once that sound ends, the next one may pause the agent again.
    const q = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    speak(q, 900, SPEAKING, false);
    q.onTimeout();
    q.onSpeechEnd(3_000, SPEAKING);
    expect(speak(q, 600, SPEAKING, false)).toEqual(['pause', 'arm_timer']);
  });

  it('interrupts once the speech is long enough and has two real words', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(types(p.onSpeechStart(SPEAKING))).toEqual([]);
    expect(types(p.onSpeechProgress(300, SPEAKING))).toEqual([]);
    // Words before the minimum duration wait for it.
    expect(types(p.onTranscript('Tell me', SPEAKING))).toEqual([]);
    expect(types(p.onSpeechProgress(520, SPEAKING))).toEqual(['interrupt']);
    // The turn that interrupted is answered, however short its final text.
    expect(p.onTurnEnd('Tell.', IDLE).answer).toBe(true);
  });

  it('turns a pause into an interruption when the words arrive', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(speak(p, 700, SPEAKING, false)).toEqual(['pause', 'arm_timer']);
    expect(types(p.onTranscript('Actually wait', SPEAKING))).toEqual(['cancel_timer', 'interrupt']);
  });

  it('does not count backchannels as words, and resumes at once when a paused turn was only feedback', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(p.realWords('Yeah, okay, right.')).toBe(0);
    expect(p.realWords('Yeah, but the price?')).toBe(3);
    expect(speak(p, 700, SPEAKING, false)).toEqual(['pause', 'arm_timer']);
    expect(types(p.onTranscript('Yeah okay right', SPEAKING))).toEqual([]);
    const turn = p.onTurnEnd('Yeah, okay, right.', SPEAKING);
    expect(turn.answer).toBe(false);
    expect(types(turn.actions)).toEqual(['cancel_timer', 'resume']);
  });

  it('answers a short reply when the agent is not speaking, and a short addition while it thinks', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(p.onTurnEnd('Yeah.', IDLE)).toEqual({ answer: true, actions: [] });
    // Nothing was paused, so an answered turn has no timer to cancel.
    expect(p.onTurnEnd('Tomorrow.', THINKING)).toEqual({ answer: true, actions: [] });
  });

  it('with a single real word over the agent: not an interruption and not answered (minimum 2)', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    speak(p, 400);
    expect(types(p.onTranscript('Really', SPEAKING))).toEqual([]);
    expect(p.onTurnEnd('Really.', SPEAKING).answer).toBe(false);
  });

  it('without resume, never pauses: only words interrupt', () => {
    const p = new InterruptionPolicy({ ...DEFAULT_INTERRUPTION, resumeFalseInterruption: false });
    expect(speak(p, 1_500)).toEqual([]);
    expect(types(p.onTranscript('hold on', SPEAKING))).toEqual(['interrupt']);
  });

  it('trusts the recognizer when the VAD heard nothing (a quiet caller)', () => {
    const p = new InterruptionPolicy(DEFAULT_INTERRUPTION);
    expect(types(p.onTranscript('Wait, actually', THINKING))).toEqual(['interrupt']);
  });

  it('maps the agent object over the defaults, custom backchannels included', () => {
    expect(interruptionSettings(undefined)).toEqual(DEFAULT_INTERRUPTION);
    const s = interruptionSettings({ min_words: 3, min_duration_ms: 300, false_interruption_timeout_ms: 900, resume_false_interruption: false, backchannels: ['vale', 'sí'] });
    expect(s).toMatchObject({ minWords: 3, minDurationMs: 300, falseInterruptionTimeoutMs: 900, resumeFalseInterruption: false });
    expect([...s.backchannels]).toEqual(['vale', 'sí']);
    expect(new InterruptionPolicy(s).realWords('Vale, sí, claro')).toBe(1);
  });

  it('splits transcript words the way backchannels are written', () => {
    expect(transcriptWords('Uh-huh. Mm-hmm, OK!')).toEqual(['uh-huh', 'mm-hmm', 'ok']);
  });
});

describe('interruption policy, edge by edge', () => {
  const fresh = () => new InterruptionPolicy(DEFAULT_INTERRUPTION);

  it('splits on any punctuation and trims only the hyphens and apostrophes around a word', () => {
    expect(transcriptWords("Don't—stop!!  ''quoted'' --well-- rock'n'roll 42")).toEqual(["don't", 'stop', 'quoted', 'well', "rock'n'roll", '42']);
  });

  it('speech that began over audible agent audio makes a short turn feedback, even once the agent is quiet', () => {
    const p = fresh();
    p.onSpeechStart(SPEAKING);
    p.onSpeechEnd(100, SPEAKING);
    expect(p.onTurnEnd('really', IDLE).answer).toBe(false);
    const q = fresh();
    q.onSpeechStart(IDLE);
    q.onSpeechEnd(100, IDLE);
    expect(q.onTurnEnd('tomorrow', IDLE).answer).toBe(true);
  });

  it('a transcript over audible audio marks the turn overlapped; a blank one or one over silence does not', () => {
    const p = fresh();
    expect(p.onTranscript('really', SPEAKING)).toEqual([]);
    expect(p.onTurnEnd('really', IDLE).answer).toBe(false);
    const blank = fresh();
    blank.onTranscript('   ', SPEAKING);
    expect(blank.onTurnEnd('tomorrow', IDLE).answer).toBe(true);
    const quiet = fresh();
    quiet.onTranscript('tomorrow', THINKING);
    expect(quiet.onTurnEnd('tomorrow', IDLE).answer).toBe(true);
  });

  it('keeps the longest speech of the turn, and interrupts at exactly the minimum duration', () => {
    const p = fresh();
    p.onSpeechStart(THINKING);
    p.onSpeechProgress(600, THINKING);
    p.onSpeechProgress(100, THINKING);
    expect(types(p.onTranscript('please stop', THINKING))).toEqual(['interrupt']);
    const q = fresh();
    q.onSpeechStart(SPEAKING);
    // Words at the very start of the speech wait for its duration.
    expect(types(q.onTranscript('tell me', SPEAKING))).toEqual([]);
    expect(types(q.onSpeechProgress(499, SPEAKING))).toEqual([]);
    expect(types(q.onSpeechProgress(500, SPEAKING))).toEqual(['interrupt']);
  });

  it('nothing is interrupted or paused while the agent is idle', () => {
    const p = fresh();
    expect(p.onTranscript('hello there', IDLE)).toEqual([]);
    p.onSpeechStart(IDLE);
    expect(p.onSpeechProgress(900, IDLE)).toEqual([]);
    expect(p.isPaused).toBe(false);
  });

  it('two real words over the agent are a request, not feedback (the minimum is inclusive)', () => {
    expect(fresh().onTurnEnd('tell me', SPEAKING).answer).toBe(true);
    expect(fresh().onTurnEnd('tell', SPEAKING).answer).toBe(false);
  });

  it('an answered turn ends a pause (cancelling its timer); an interruption ends it too', () => {
    const p = fresh();
    expect(speak(p, 700, SPEAKING, false)).toEqual(['pause', 'arm_timer']);
    expect(p.onTurnEnd('I need help now', SPEAKING)).toEqual({ answer: true, actions: [{ type: 'cancel_timer' }] });
    expect(p.isPaused).toBe(false);
    const q = fresh();
    speak(q, 700, SPEAKING, false);
    expect(types(q.onTranscript('actually wait', SPEAKING))).toEqual(['cancel_timer', 'interrupt']);
    expect(q.isPaused).toBe(false);
    expect(q.onTimeout()).toEqual([]);
  });

  it('an utterance that is gone takes its pause with it, and only then', () => {
    const p = fresh();
    expect(p.onUtteranceGone()).toEqual([]);
    speak(p, 700, SPEAKING, false);
    expect(p.onUtteranceGone()).toEqual([{ type: 'cancel_timer' }]);
    expect(p.isPaused).toBe(false);
    expect(p.onUtteranceGone()).toEqual([]);
  });

  it('each turn starts afresh: its speech, words, overlap and floor are its own', () => {
    const p = fresh();
    speak(p, 900, THINKING);
    expect(types(p.onTranscript('book a table', THINKING))).toEqual(['interrupt']);
    p.onTurnEnd('book a table', IDLE);
    // The next turn: speech just started, words already there: it waits for the duration again.
    p.onSpeechStart(SPEAKING);
    expect(p.onTranscript('tell me', SPEAKING)).toEqual([]);
    p.onSpeechEnd(100, SPEAKING);
    // And a short feedback turn is not taken for the floor the last turn took.
    expect(p.onTurnEnd('yeah', SPEAKING).answer).toBe(false);
  });
});

describe('WebRTC VAD (fvad-wasm)', () => {
  it('loads offline and finds speech in speech, none in silence, independent of chunking', async () => {
    const mod = await loadFvad();
    const talk = mulawToPcm(await speech('Stop, please. I need to talk to a person.'));
    const quiet = new Int16Array(8_000);
    const whole = new VoiceActivity(mod, 8_000);
    const a = [...whole.push(talk), ...whole.push(quiet)];
    const chunked = new VoiceActivity(mod, 8_000);
    const b = [];
    for (let i = 0; i < talk.length; i += 77) b.push(...chunked.push(talk.subarray(i, i + 77)));
    b.push(...chunked.push(quiet));
    expect(a.map((e) => e.type)).toContain('speech_start');
    expect(a.at(-1)).toMatchObject({ type: 'speech_end' });
    expect((a.at(-1) as { speechMs: number }).speechMs).toBeGreaterThan(1_000);
    expect(b).toEqual(a);
    // The same speech 30 dB down (the agent's voice coming back as line echo) is not the caller talking.
    const echo = new VoiceActivity(mod, 8_000);
    expect(echo.push(talk.map((x) => Math.round(x * 0.03)))).toEqual([]);
    echo.free();
    const silent = new VoiceActivity(mod, 8_000);
    expect(silent.push(new Int16Array(16_000))).toEqual([]);
    for (const v of [whole, chunked, silent]) v.free();
  });
});
