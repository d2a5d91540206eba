// The options page: which Lectern server to use (host permission asked for that server only, at the
// moment it is set) and the account on it.
import { readSettings, originPattern, saveServer, serverOrigin, signOut } from './settings';
import { wireSignInForm } from './sign-in-form';

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;

async function render() {
  const { server, token, email } = await readSettings();
  $<HTMLInputElement>('#server-input').value = server;
  $('#account').hidden = !token;
  $('#sign-in').hidden = Boolean(token);
  $('#account-email').textContent = email ?? '';
}

$<HTMLFormElement>('#server-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const status = $('#server-status');
  const origin = serverOrigin($<HTMLInputElement>('#server-input').value);
  if (!origin) {
    status.textContent = 'Enter the address of your Lectern, such as https://lectern.example.org';
    return;
  }
  // Asked here, inside the click: browsers grant host permissions only in answer to a gesture.
  void chrome.permissions.request({ origins: [originPattern(origin)] }).then(async (granted) => {
    if (!granted) {
      status.textContent = `Lectern needs your permission to talk to ${origin}`;
      return;
    }
    await saveServer(origin);
    status.textContent = `Saved. Sign in to ${origin} below.`;
    await render();
  });
});
$('#sign-out').addEventListener('click', () => void signOut().then(render));
wireSignInForm($<HTMLFormElement>('#sign-in-form'), () => void render());
void render();
