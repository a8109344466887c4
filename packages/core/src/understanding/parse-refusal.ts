import type { ParseFailureCode } from '@stoa/contract';

export type { ParseFailureCode };

/**
 * A parse that stopped on purpose: over a cap (too_large, too_complex) or unreadable (damaged, encrypted, not
 * what its type says). The code is stored with the asset; the message never names host paths.
 */
export class ParseRefusal extends Error {
  constructor(
    readonly code: ParseFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'ParseRefusal';
  }
}
