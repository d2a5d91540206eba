// The sign-in form the popup and the options page share: email and password, POST /api/auth/login.
import { signIn } from './lectern-api';

export function wireSignInForm(form: HTMLFormElement, onSignedIn: () => void): void {
  const error = form.querySelector<HTMLElement>('[data-error]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
    if (button) button.disabled = true;
    void signIn(String(data.get('email') ?? ''), String(data.get('password') ?? ''))
      .then((answer) => {
        if (answer.ok) {
          form.reset();
          if (error) error.textContent = '';
          onSignedIn();
        } else if (error) error.textContent = answer.reason;
      })
      .finally(() => {
        if (button) button.disabled = false;
      });
  });
}
