// The meeting page's simulated-vendors notice (docs/provider-keys.md, "Simulated vendors").

/**
 * The simulated-vendors notice the server renders on the Join screen, drawn from the session on the room
 * page a reload lands on (the same words, from the same answer).
 */
export function showStandIns(notice) {
  if (!notice || typeof notice.message !== 'string' || document.getElementById('stand-ins')) return;
  const aside = document.createElement('aside');
  aside.id = 'stand-ins';
  aside.className = 'stand-ins';
  aside.setAttribute('aria-label', 'Simulated vendors');
  const text = document.createElement('p');
  text.textContent = notice.message;
  aside.append(text);
  document.getElementById('state')?.after(aside);
}
