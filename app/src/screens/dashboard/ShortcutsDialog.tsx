import { Modal } from '../../components/Modal';
import { ShortcutList } from '../../components/ShortcutList';

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  return (
    <Modal open={open} onClose={onClose} size="sm" title="Keyboard shortcuts">
      <ShortcutList />
    </Modal>
  );
}
