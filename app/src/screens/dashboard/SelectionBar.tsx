import { Button } from '../../components/Button';

export interface SelectionBarProps {
  selectMode: boolean;
  selectedCount: number;
  shownCount: number;
  onStart(): void;
  onSelectAll(): void;
  onDeselectAll(): void;
  onDelete(): void;
  onCancel(): void;
}

/** Spec section 4's bulk select mode: Select Multiple, then select all or deselect all, Delete (n), Cancel. */
export function SelectionBar(props: SelectionBarProps) {
  if (!props.selectMode) {
    return (
      <Button variant="secondary" size="sm" onClick={props.onStart} disabled={props.shownCount === 0}>
        Select Multiple
      </Button>
    );
  }
  const allSelected = props.selectedCount === props.shownCount && props.shownCount > 0;
  return (
    <div className="selection-bar" role="group" aria-label="Selection">
      <p className="selection-bar__count" aria-live="polite">
        {props.selectedCount} selected
      </p>
      <Button variant="ghost" size="sm" onClick={props.onSelectAll} disabled={allSelected}>
        Select All
      </Button>
      <Button variant="ghost" size="sm" onClick={props.onDeselectAll} disabled={props.selectedCount === 0}>
        Deselect All
      </Button>
      <Button variant="danger" size="sm" disabled={props.selectedCount === 0} onClick={props.onDelete}>
        Delete ({props.selectedCount})
      </Button>
      <Button variant="secondary" size="sm" onClick={props.onCancel}>
        Cancel
      </Button>
    </div>
  );
}
