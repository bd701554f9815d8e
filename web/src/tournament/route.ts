// Which page the tournament entry shows, from its address.

/** `/tournament/<site>/<board>` names one board (`<site>/<board>`); anything else is the overview. */
export function boardOfPath(pathname: string): string | null {
  const match = /^\/tournament\/([A-Za-z0-9][A-Za-z0-9._-]{0,63})\/([A-Za-z0-9][A-Za-z0-9._-]{0,63})\/?$/.exec(pathname);
  return match ? `${match[1]}/${match[2]}` : null;
}
