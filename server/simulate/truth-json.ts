// Ground-truth files as people read them: JSON with every array of plain values on one line.

/** JSON with arrays of plain values kept on one line, so a truth file stays readable. */
export function formatTruthJson(truth: object): string {
  const text = JSON.stringify(truth, null, 2);
  return text.replace(/\[\s*((?:-?[\d.]+|"[^"\n]*"|true|false|null)(?:,\s*(?:-?[\d.]+|"[^"\n]*"|true|false|null))*)\s*\]/g, (_m, items: string) =>
    // Items are re-read rather than split at commas: a Malawi distribution (`d1>a1,b1`) has commas of its own.
    `[${(JSON.parse(`[${items}]`) as unknown[]).map((item) => JSON.stringify(item)).join(', ')}]`,
  ) + '\n';
}
