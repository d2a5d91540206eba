// Icons of the lists screen, on the shared 24px stroke grid.
import { Icon } from '../../components/icons';

export const ArrowUpIcon = () => (
  <Icon>
    <path d="M12 19V5M5 12l7-7 7 7" />
  </Icon>
);

export const ArrowDownIcon = () => (
  <Icon>
    <path d="M12 5v14M19 12l-7 7-7-7" />
  </Icon>
);

export const GripIcon = () => (
  <Icon>
    <path d="M9 5h.01M9 12h.01M9 19h.01M15 5h.01M15 12h.01M15 19h.01" />
  </Icon>
);

export const RemoveIcon = () => (
  <Icon>
    <path d="M5 12h14" />
    <circle cx="12" cy="12" r="9" />
  </Icon>
);

export const PlusIcon = () => (
  <Icon>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);
