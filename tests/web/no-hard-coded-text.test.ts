// Every word a page shows comes from a catalogue: this reads the Lit templates of web/src and finds
// text or labelling attributes written into them directly.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WEB = join(import.meta.dirname, '../../web/src');
/** Attributes a person reads or a screen reader speaks. */
const READ_ATTRIBUTES = /\s(title|aria-label|aria-description|placeholder|alt|label)="([^"]*)"/g;
/** A word: two letters in a row. Symbols, numbers and single letters (pit "A", "×") are not words. */
const WORD = /\p{L}{2,}/u;
const HOLE = '\u0000';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The static parts of every html`` and svg`` template, with each ${…} replaced by a hole. */
function templates(file: string, text: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && (node.tag.text === 'html' || node.tag.text === 'svg')) {
      const template = node.template;
      found.push(
        ts.isNoSubstitutionTemplateLiteral(template)
          ? template.text
          : [template.head.text, ...template.templateSpans.map((span) => span.literal.text)].join(HOLE),
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true));
  return found;
}

/** The words a template shows as they stand: text between tags, and labelling attributes. */
function wordsIn(template: string): string[] {
  const words: string[] = [];
  const withoutStyles = template.replace(/<style[\s\S]*?<\/style>/g, '');
  for (const tag of withoutStyles.matchAll(/<[^>]*>/g)) {
    for (const attribute of tag[0].matchAll(READ_ATTRIBUTES)) if (WORD.test(attribute[2])) words.push(`${attribute[1]}="${attribute[2]}"`);
  }
  const text = withoutStyles.replace(/<!--[\s\S]*?-->/g, '').replace(/<[^>]*>/g, HOLE).replace(/&\w+;/g, ' ');
  for (const piece of text.split(HOLE)) if (WORD.test(piece)) words.push(piece.trim());
  return words;
}

describe('no hard-coded text in the pages', () => {
  it('finds the words it looks for, so that an empty answer below means something', () => {
    expect(wordsIn(`<p title="Zur Anzeige">${HOLE}</p><b>Spieler</b> ${HOLE} × <i>A</i>`)).toEqual(['title="Zur Anzeige"', 'Spieler']);
    expect(templates('x.ts', 'html`<p>Hallo ${name}</p>`; css`p { color: red }`')).toEqual([`<p>Hallo ${HOLE}</p>`]);
  });

  it('has every text of every Lit template in web/src from a catalogue', () => {
    const hardCoded = sources(WEB)
      .filter((file) => !/[/\\](de|en)\.ts$/.test(file))
      .flatMap((file) =>
        templates(file, readFileSync(file, 'utf8')).flatMap((template) => wordsIn(template).map((word) => `${relative(WEB, file)}: ${word}`)),
      );
    expect(hardCoded).toEqual([]);
  });
});
