// The two web platform globals this package uses, present in browsers and in Node alike. Declared here
// so that the package compiles without DOM or Node typings (it must import neither).
declare class URL {
  constructor(input: string, base?: string);
  readonly href: string;
  readonly protocol: string;
}
declare const crypto: { getRandomValues<T extends Uint8Array>(array: T): T };
