import { createContext, useContext } from 'react';
import type { Lectern } from '../data';

export const LecternContext = createContext<Lectern | null>(null);

/** The app's one data layer: every screen reads and writes through it, never through fetch. */
export function useLectern(): Lectern {
  const lectern = useContext(LecternContext);
  if (!lectern) throw new Error('useLectern() needs a <LecternProvider> above it');
  return lectern;
}
