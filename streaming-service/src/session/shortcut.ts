import type { DtmfShortcut } from '../../../lib/domain/agent.js';
import type { ShortcutContext } from './action-context.js';

/** The lines a shortcut says, so the caller knows what is happening without the model. */
export interface ShortcutLines {
  readonly goodbyePhrase: string;
  /** Said when a shortcut starts a transfer, and when it fails. */
  readonly transferHoldPhrase: string;
  readonly transferFailedPhrase: string;
}

/**
 * A keypad shortcut (dtmf.ts recognized the key): acts at once, without the model, over whatever the agent
 * was saying. A failed transfer is said so and the call goes on with the agent.
 */
export async function runShortcut(ctx: ShortcutContext, shortcut: DtmfShortcut, lines: ShortcutLines): Promise<void> {
  const { state } = ctx;
  if (state.isEnding || state.state === 'transferring') return;
  ctx.interrupt();
  if (shortcut.action === 'end_call') {
    await ctx.say(lines.goodbyePhrase).done;
    ctx.hangUp();
    return;
  }
  await ctx.say(lines.transferHoldPhrase).done;
  const result = await ctx.transfer(shortcut.destination, shortcut.mode);
  if (!result.ok && !state.isEnding) await ctx.say(lines.transferFailedPhrase).done;
}
