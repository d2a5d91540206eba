import { useState } from 'react';
import { Button } from '../../components/Button';
import { Modal } from '../../components/Modal';
import { OfflineIcon } from '../../components/icons';
import type { SyncState } from '../../data';
import { useLectern } from '../../session/use-lectern';
import { countOf } from './article-format';
import { CloudIcon } from './dashboard-icons';
import { describeChange } from './describe-change';

function statusText(state: SyncState): string {
  const waiting = state.pendingCount > 0 ? `${countOf(state.pendingCount, 'change')} waiting to sync` : '';
  if (!state.online) return waiting ? `Offline · ${waiting}` : 'Offline · changes are kept on this device';
  if (state.syncing) return 'Syncing…';
  return waiting || 'All changes synced';
}

/** Whether the device is online, how many changes wait for the server, and any it refused. */
export function SyncStatus({ state }: { state: SyncState }) {
  const [reviewing, setReviewing] = useState(false);
  const tone = !state.online ? 'offline' : state.pendingCount > 0 || state.syncing ? 'pending' : 'synced';
  return (
    <div className="sync-status">
      <p className={`sync-status__pill sync-status__pill--${tone}`} role="status">
        {state.online ? <CloudIcon size={16} /> : <OfflineIcon size={16} />}
        <span>{statusText(state)}</span>
      </p>
      {state.failed.length > 0 && (
        <>
          <Button variant="secondary" size="sm" onClick={() => setReviewing(true)}>
            {countOf(state.failed.length, 'change')} refused
          </Button>
          <RefusedChanges state={state} open={reviewing} onClose={() => setReviewing(false)} />
        </>
      )}
    </div>
  );
}

function RefusedChanges({ state, open, onClose }: { state: SyncState; open: boolean; onClose(): void }) {
  const { sync } = useLectern();
  return (
    <Modal
      open={open && state.failed.length > 0}
      onClose={onClose}
      title="Changes the server refused"
      description="Try each again, or give it up to keep the rest of your changes flowing."
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      <ul className="refused-list">
        {state.failed.map((write) => (
          <li key={write.seq} className="refused-list__item">
            <p className="refused-list__what">{describeChange(write.op)}</p>
            <p className="refused-list__why">{write.error}</p>
            <div className="refused-list__actions">
              <Button size="sm" variant="secondary" onClick={() => void sync.retry(write.seq)}>
                Retry
              </Button>
              <Button size="sm" variant="ghost" onClick={() => void sync.discard(write.seq)}>
                Discard
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
