/** The rules of one robots.txt for one user agent (RFC 9309). */
export interface RobotsRules {
  isAllowed(pathAndQuery: string): boolean;
}

export const ALLOW_ALL: RobotsRules = { isAllowed: () => true };
export const DENY_ALL: RobotsRules = { isAllowed: () => false };

interface Rule {
  allow: boolean;
  pattern: string;
  /** The pattern without a final `$`, and whether it had one. */
  glob: string;
  anchored: boolean;
}

/** The product token robots.txt groups name: "ModelContextProtocol" of "ModelContextProtocol/1.0 (...)". */
export function productToken(userAgent: string): string {
  return (/^[A-Za-z_-]+/.exec(userAgent)?.[0] ?? userAgent).toLowerCase();
}

/**
 * Whether `path` matches a robots.txt pattern (`*` any run of characters; a final `$`
 * anchors it at the end, else a prefix matches). Not a regular expression: `/*a*a*a...b`
 * compiled to `.*a.*a...` backtracks exponentially on a long path, and the pattern comes
 * from the site. This greedy matcher goes back only to the last `*`, so it takes at most
 * (path length x pattern length) steps.
 */
function globMatches(glob: string, anchored: boolean, path: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < path.length) {
    if (p === glob.length && !anchored) return true;
    if (p < glob.length && glob[p] === '*') {
      star = p++;
      mark = t;
    } else if (p < glob.length && glob[p] === path[t]) {
      p++;
      t++;
    } else if (star !== -1) {
      p = star + 1;
      t = ++mark;
    } else return false;
  }
  while (p < glob.length && glob[p] === '*') p++;
  return p === glob.length;
}

function normalizePath(path: string): string {
  // Compare percent-encodings in one form: decode what is safe to decode, keep the rest.
  try {
    return encodeURI(decodeURI(path));
  } catch {
    return path;
  }
}

/**
 * Parses robots.txt and keeps the group for `userAgent` (its product token, matched
 * case-insensitively), or the `*` group. The longest matching rule wins; Allow wins a tie.
 */
export function parseRobots(text: string, userAgent: string): RobotsRules {
  const token = productToken(userAgent);
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | undefined;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current || (field !== 'allow' && field !== 'disallow')) continue;
    if (value === '') continue; // "Disallow:" with no path allows everything
    const pattern = normalizePath(value);
    const anchored = pattern.endsWith('$');
    current.rules.push({ allow: field === 'allow', pattern, glob: anchored ? pattern.slice(0, -1) : pattern, anchored });
  }
  const named = groups.filter((group) => group.agents.some((agent) => agent !== '*' && token.includes(agent)));
  const chosen = named.length ? named : groups.filter((group) => group.agents.includes('*'));
  const rules = chosen.flatMap((group) => group.rules);
  if (rules.length === 0) return ALLOW_ALL;
  return {
    isAllowed(pathAndQuery) {
      const path = normalizePath(pathAndQuery);
      if (path === '/robots.txt') return true;
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!globMatches(rule.glob, rule.anchored, path)) continue;
        if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
      }
      return best?.allow ?? true;
    },
  };
}
