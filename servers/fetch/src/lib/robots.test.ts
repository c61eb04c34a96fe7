import { describe, expect, it } from 'vitest';
import { parseRobots, productToken } from './robots.js';

const UA = 'ModelContextProtocol/1.0 (Autonomous; +https://github.com/modelcontextprotocol/servers)';

describe('robots.txt rules', () => {
  it('takes the product token of a user agent', () => {
    expect(productToken(UA)).toBe('modelcontextprotocol');
  });

  it('uses the group naming our agent over the * group', () => {
    const rules = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: ModelContextProtocol\nDisallow: /private\n', UA);
    expect(rules.isAllowed('/public')).toBe(true);
    expect(rules.isAllowed('/private/x')).toBe(false);
  });

  it('lets the longest match win, Allow on a tie, with * and $ patterns', () => {
    const rules = parseRobots('User-agent: *\nDisallow: /docs\nAllow: /docs/public\nDisallow: /*.pdf$\nDisallow: /tmp*\n', UA);
    expect(rules.isAllowed('/docs/secret')).toBe(false);
    expect(rules.isAllowed('/docs/public/a')).toBe(true);
    expect(rules.isAllowed('/files/a.pdf')).toBe(false);
    expect(rules.isAllowed('/files/a.pdf?x')).toBe(true);
    expect(rules.isAllowed('/tmpfile')).toBe(false);
    expect(rules.isAllowed('/robots.txt')).toBe(true);
  });

  it('allows everything for an empty Disallow, comments and unknown lines', () => {
    const rules = parseRobots('# hello\nUser-agent: *\nDisallow:\nCrawl-delay: 10\nSitemap: /s.xml\n', UA);
    expect(rules.isAllowed('/anything')).toBe(true);
  });

  it('shares rules between consecutive user-agent lines of one group', () => {
    const rules = parseRobots('User-agent: other\nUser-agent: modelcontextprotocol\nDisallow: /x\n', UA);
    expect(rules.isAllowed('/x')).toBe(false);
  });

  it('matches a pattern of many wildcards against a long path in linear steps, not by backtracking', () => {
    // As a regular expression (^/.*a.*a...b) this takes exponential time: the test would hang.
    const rules = parseRobots(`User-agent: *\nDisallow: /${'*a'.repeat(15)}*b\nDisallow: /x*y*z$\n`, UA);
    expect(rules.isAllowed(`/${'a'.repeat(5_000)}`)).toBe(true);
    expect(rules.isAllowed(`/${'a'.repeat(5_000)}b`)).toBe(false);
    expect(rules.isAllowed('/x1y2z')).toBe(false);
    expect(rules.isAllowed('/x1y2z3')).toBe(true);
  });
});
