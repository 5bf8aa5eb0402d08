/**
 * Invariant: only a fragment that stops where a sentence cannot end (a conjunction, article, preposition
 * or filler; a comma, dash or ellipsis) waits for more; a question, an exclamation or a fragment without
 * those signs is answered at once; an agent's own word list and wait replace the defaults; held words
 * restored to the turn detector lead the next turn.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_UNFINISHED_WAIT_MS, endOfTurnWaitMs, looksUnfinished, turnTakingSettings } from '../../streaming-service/src/session/end-of-turn.js';
import { TurnDetector } from '../../streaming-service/src/session/turn-detector.js';
import { AgentUpdate } from '../../lib/domain/agent.js';

const english = turnTakingSettings().continuationWords;

describe('looksUnfinished', () => {
  it.each([
    'I would like to book a table for',
    'I would like to book a table for.',
    'and',
    'We need a room with, um',
    'Can I change the',
    'I was thinking,',
    'Maybe...',
    'Well —',
    'Uh',
  ])('%j waits for more', (text) => {
    expect(looksUnfinished(text, english)).toBe(true);
  });

  it.each(['Tomorrow at seven.', 'Yes', 'Where are you from?', 'Not for!', 'two people tomorrow at seven', '', '   '])('%j is over', (text) => {
    expect(looksUnfinished(text, english)).toBe(false);
  });
});

describe('turn-taking settings', () => {
  it('waits the default 2 s after an unfinished fragment and nothing after a finished one', () => {
    const settings = turnTakingSettings();
    expect(DEFAULT_UNFINISHED_WAIT_MS).toBe(2_000);
    expect(endOfTurnWaitMs('a table for', settings)).toBe(2_000);
    expect(endOfTurnWaitMs('a table for two.', settings)).toBe(0);
  });

  it('takes the agent\'s wait and word list instead of the defaults', () => {
    const spanish = turnTakingSettings({ unfinished_wait_ms: 1_200, continuation_words: ['para', 'y'] });
    expect(endOfTurnWaitMs('una mesa para', spanish)).toBe(1_200);
    expect(endOfTurnWaitMs('a table for', spanish)).toBe(0);
    expect(endOfTurnWaitMs('a table for', turnTakingSettings({ unfinished_wait_ms: 0 }))).toBe(0);
  });
});

describe('TurnDetector.restore', () => {
  it('puts held words in front of the next turn', () => {
    const detector = new TurnDetector();
    detector.restore('I would like to book a table for');
    detector.onFrame({ kind: 'transcript', text: 'two', isFinal: false, speechFinal: false, atMs: 1 });
    expect(detector.pendingText).toBe('I would like to book a table for two');
    const [end] = detector.onFrame({ kind: 'transcript', text: 'two people.', isFinal: true, speechFinal: true, atMs: 2 });
    expect(end).toMatchObject({ type: 'turn_end', text: 'I would like to book a table for two people.' });
  });
});

describe('the agent\'s turn_taking object', () => {
  it('takes the documented ranges and lower-cases the words', () => {
    const parsed = AgentUpdate.parse({ turn_taking: { unfinished_wait_ms: 0, continuation_words: [' Para ', 'Y'] } });
    expect(parsed.turn_taking).toEqual({ unfinished_wait_ms: 0, continuation_words: ['para', 'y'] });
    expect(AgentUpdate.parse({ turn_taking: { unfinished_wait_ms: 10_000 } }).turn_taking).toEqual({ unfinished_wait_ms: 10_000 });
  });

  it.each([
    { unfinished_wait_ms: -1 },
    { unfinished_wait_ms: 10_001 },
    { unfinished_wait_ms: 1.5 },
    { continuation_words: [''] },
    { continuation_words: ['x'.repeat(41)] },
    { unknown_field: 1 },
  ])('refuses %j', (turnTaking) => {
    expect(AgentUpdate.safeParse({ turn_taking: turnTaking }).success).toBe(false);
  });
});
