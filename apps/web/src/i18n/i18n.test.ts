import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { ru } from './ru.js';
import { zh } from './zh.js';
import { translate } from './index.js';
import { auditActions, errorCodes, installationAuditActions } from '@stoa/contract';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
// Names that stay the same in every language: product and file names, the storage root of F5, "ID".
const sameEverywhere = new Set(['app.title', 'agents.id', 'memory.soulMd', 'memory.memoryMd']);

describe('UI dictionaries', () => {
  for (const [lang, dict] of [
    ['ru', ru],
    ['zh', zh],
  ] as const) {
    it(`${lang} translates every English string, with the same {placeholders}`, () => {
      for (const key of Object.keys(en) as Array<keyof typeof en>) {
        expect(dict[key], `${lang}: ${key}`).toBeTruthy();
        expect(placeholders(dict[key]), `${lang}: ${key}`).toEqual(placeholders(en[key]));
        if (!sameEverywhere.has(key)) expect(dict[key], `${lang}: ${key} is still English`).not.toBe(en[key]);
      }
    });
  }

  it('names every error code of the server in words, in every language', () => {
    for (const code of Object.keys(errorCodes)) expect(en, code).toHaveProperty(`error.${code}`);
  });

  // Issue 29: the audit page showed a raw `folder.create`; every action a log records has words in every language.
  it('names every audit action in words, in every language', () => {
    for (const action of [...auditActions, ...installationAuditActions])
      for (const [lang, dict] of [
        ['en', en],
        ['ru', ru],
        ['zh', zh],
      ] as const)
        expect(dict, `${lang}: ${action}`).toHaveProperty([`audit.action.${action}`]);
  });

  it('fills in values and keeps the F4 wording', () => {
    expect(translate('en', 'files.usage', { used: '12.4 MB', quota: '1.0 GB' })).toBe('Used 12.4 MB of 1.0 GB');
    expect(translate('ru', 'files.usage', { used: '12.4 MB', quota: '1.0 GB' })).toBe('Занято 12.4 MB из 1.0 GB');
    expect(translate('zh', 'files.agentTag', { name: 'Researcher' })).toBe('智能体：Researcher');
    expect(translate('en', 'files.root')).toBe('Project files');
  });
});
