// The dashboard's own stroke icons, drawn with the shared Icon (24px grid, decorative) at 18px unless told.
import type { ReactNode } from 'react';
import { Icon } from '../../components/icons';
export { CameraIcon } from '../../components/icons';

interface IconProps {
  size?: number;
}

function DashboardIcon({ size = 18, ...rest }: IconProps & { children: ReactNode; fill?: string }) {
  return <Icon size={size} {...rest} />;
}

export const StarIcon = ({ filled = false, ...props }: IconProps & { filled?: boolean }) => (
  <DashboardIcon {...props} fill={filled ? 'currentColor' : 'none'}>
    <path d="m12 2.8 2.9 5.8 6.4.9-4.6 4.5 1.1 6.4L12 17.4l-5.8 3 1.1-6.4-4.6-4.5 6.4-.9Z" />
  </DashboardIcon>
);

export const ArchiveIcon = (props: IconProps) => (
  <DashboardIcon {...props}>
    <rect x="3" y="4" width="18" height="5" rx="1" />
    <path d="M5 9v10a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V9M10 13h4" />
  </DashboardIcon>
);

// Not the reader's TrashIcon: this can has square corners at the foot, and the cards keep their look.
export const TrashIcon = (props: IconProps) => (
  <DashboardIcon {...props}>
    <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
  </DashboardIcon>
);

export const KeyboardIcon = (props: IconProps) => (
  <DashboardIcon {...props}>
    <rect x="2" y="6" width="20" height="12" rx="2" />
    <path d="M6 10h.01M10 10h.01M14 10h.01M18 10h.01M7 14h10" />
  </DashboardIcon>
);

export const CloudIcon = (props: IconProps) => (
  <DashboardIcon {...props}>
    <path d="M17.5 19a4.5 4.5 0 1 0-1.4-8.8A6 6 0 0 0 4.5 12 3.5 3.5 0 0 0 6 19Z" />
  </DashboardIcon>
);

/** On the device for reading offline: a tray holding a check. */
export const OfflineReadyIcon = (props: IconProps) => (
  <DashboardIcon size={14} {...props}>
    <path d="M4 14v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4M8 9l3 3 5-6" />
  </DashboardIcon>
);

/** Still downloading for offline: an arrow into the tray. */
export const OfflineDownloadingIcon = (props: IconProps) => (
  <DashboardIcon size={14} {...props}>
    <path d="M4 14v4a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-4M12 3v11M8 10l4 4 4-4" />
  </DashboardIcon>
);
