import { useState } from 'react';
import type { FormEvent } from 'react';
import {
  defaultDisplayName,
  isFilledIn,
  MESSAGES,
  USERNAME_MAX_LENGTH,
  type User,
} from '@lectern/shared-schema';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/use-toast';
import { useLectern } from '../../session/use-lectern';
import { useSession } from '../../session/use-session';

/** Spec section 5: the display name is required and defaults to the username or the email's local part. */
export function ProfileForm({ user }: { user: User }) {
  const lectern = useLectern();
  const { setUser } = useSession();
  const { showToast } = useToast();
  const initial = defaultDisplayName(user);
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  const unchanged = name.trim() === (user.username ?? '').trim();

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!isFilledIn(name)) return;
    const username = name.trim();
    setBusy(true);
    try {
      const { user: updated } = await lectern.auth.updateProfile({ username });
      setUser(updated);
      setName(defaultDisplayName(updated));
      showToast(MESSAGES.profileUpdated, 'success');
    } catch {
      showToast(MESSAGES.profileUpdateFailed, 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="profile-form" onSubmit={(event) => void save(event)} aria-label="Profile">
      <TextField
        label="Display name"
        hint="Shown in the navigation bar and on the lists you share."
        value={name}
        onChange={(event) => setName(event.target.value)}
        required
        maxLength={USERNAME_MAX_LENGTH}
        autoComplete="nickname"
      />
      <TextField label="Email" value={user.email} readOnly disabled />
      <div>
        <Button type="submit" busy={busy} disabled={unchanged || !isFilledIn(name)}>
          Save profile
        </Button>
      </div>
    </form>
  );
}
