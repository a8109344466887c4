import { describe, expect, it } from 'vitest';
import { imageTypeOf } from './read-text.js';

describe('imageTypeOf: the image type the bytes declare', () => {
  it('knows PNG, JPEG, GIF and WebP by their signatures', () => {
    expect(imageTypeOf(Buffer.from('89504e470d0a1a0a0000000d', 'hex'))).toBe('image/png');
    expect(imageTypeOf(Buffer.from('ffd8ffe000104a46', 'hex'))).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('GIF89a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(imageTypeOf(Buffer.from('GIF87a\x01\x00', 'latin1'))).toBe('image/gif');
    expect(imageTypeOf(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'))).toBe('image/webp');
  });

  it('gives null for anything else, whatever the name says: text, SVG, a RIFF that is not WebP, a cut signature', () => {
    for (const b of ['not an image', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'RIFF\x24\x00\x00\x00WAVEfmt ', 'GIF8', ''])
      expect(imageTypeOf(Buffer.from(b, 'latin1')), JSON.stringify(b)).toBeNull();
    expect(imageTypeOf(Buffer.from('89504e47', 'hex'))).toBeNull();
  });
});
