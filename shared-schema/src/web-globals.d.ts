// The web platform globals this package uses, present in browsers and in Node alike. Declared here
// so that the package compiles without DOM or Node typings (it must import neither).
declare class URL {
  constructor(input: string, base?: string);
  readonly href: string;
  readonly protocol: string;
  hash: string;
  username: string;
  password: string;
  search: string;
  pathname: string;
  hostname: string;
}
declare const crypto: { getRandomValues<T extends Uint8Array>(array: T): T };
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
