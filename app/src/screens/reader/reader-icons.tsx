// Icons the reading view needs beyond the shared set; drawn on the same 24px stroke grid.
import { Icon } from '../../components/icons';
// The highlights list and "mark as read" reuse the shared list and check marks.
export { ListIcon as QuoteListIcon, CheckIcon as ReadIcon } from '../../components/icons';

export const BackIcon = () => (
  <Icon>
    <path d="M19 12H5M12 19l-7-7 7-7" />
  </Icon>
);

export const ExternalIcon = () => (
  <Icon>
    <path d="M15 3h6v6M10 14 21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6" />
  </Icon>
);

export const TextSizeIcon = () => (
  <Icon>
    <path d="M4 7V5h10v2M9 5v14M7 19h4M14 13v-1h6v1M17 12v7M16 19h2" />
  </Icon>
);

export const UnreadIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="8" />
  </Icon>
);

export const TrashIcon = ({ size }: { size?: number }) => (
  <Icon size={size}>
    <path d="M3 6h18M8 6V4h8v2M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6M10 11v6M14 11v6" />
  </Icon>
);
