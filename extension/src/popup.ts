// The toolbar button's popup: it saves the active tab at once and says how that went (saved, already
// saved, or why not), then offers tags. Signed out, it asks for the Lectern account first.
import { OUTCOME_TEXTS, saveToLectern, type SaveOutcome } from './lectern-api';
import { activeTab, saveTab } from './save-tab';
import { readSettings, signOut } from './settings';
import { wireSignInForm } from './sign-in-form';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

/** The tab to save: the active one; `?tabId=` when the popup is opened as a tab (tests, screenshots). */
async function tabToSave(): Promise<chrome.tabs.Tab | undefined> {
  const named = Number(new URLSearchParams(location.search).get('tabId'));
  return Number.isInteger(named) && named > 0 ? chrome.tabs.get(named) : activeTab();
}

function show(section: 'signIn' | 'result') {
  $('#sign-in').hidden = section !== 'signIn';
  $('#result').hidden = section !== 'result';
}

function showOutcome(outcome: SaveOutcome) {
  const status = $('#status');
  status.dataset.kind = outcome.kind;
  $('#status-text').textContent = OUTCOME_TEXTS[outcome.kind];
  $('#detail').textContent = 'reason' in outcome ? outcome.reason : outcome.title;
  $('#tags').hidden = !(outcome.kind === 'saved' || outcome.kind === 'alreadySaved');
  if (outcome.kind === 'signedOut') show('signIn');
}

async function saveNow() {
  const { token, server } = await readSettings();
  $('#server').textContent = server;
  if (!token) return show('signIn');
  show('result');
  $('#status').dataset.kind = 'saving';
  $('#status-text').textContent = 'Saving…';
  const tab = await tabToSave();
  const outcome = tab ? await saveTab(tab) : ({ kind: 'failed', reason: 'No tab to save' } as const);
  showOutcome(outcome);
  const form = $<HTMLFormElement>('#tags');
  form.onsubmit = (event) => {
    event.preventDefault();
    const tags = String(new FormData(form).get('tags') ?? '')
      .split(',')
      .map((tag) => tag.trim())
      .filter(Boolean);
    if (tags.length === 0 || !('url' in outcome)) return;
    // Saving a known address again adds the save's tags (and answers 200).
    void saveToLectern({ url: outcome.url, tags }).then((tagged) => {
      if (tagged.kind === 'failed' || tagged.kind === 'signedOut') return showOutcome(tagged);
      $('#tags-done').textContent = `Tagged ${tags.join(', ')}`;
      form.reset();
    });
  };
}

wireSignInForm($<HTMLFormElement>('#sign-in-form'), () => void saveNow());
$('#options').addEventListener('click', (event) => {
  event.preventDefault();
  void chrome.runtime.openOptionsPage();
});
$('#sign-out').addEventListener('click', () => void signOut().then(() => show('signIn')));
void saveNow();
