// Types of build.mjs for the TypeScript that imports it (the end-to-end tests).
export function buildExtension(options?: {
  server?: string;
  outDir?: string;
  zipFile?: string | null;
}): Promise<{ outDir: string; zipFile: string | null; origin: string }>;
